package org.groovecast.host.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.sun.net.httpserver.HttpServer;
import io.vertx.core.Vertx;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.groovecast.api.ScriptException;
import org.groovecast.api.Source;
import org.groovecast.host.Station;
import org.groovecast.host.script.ScriptCompilerTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A blocking call on a clock or the scheduler is refused with its line, logged, and the station
 * plays on.
 */
@Tag("integration")
class BlockingGuardTest {
    @Test
    void httpOnAClockCallbackOrAFastThreadIsRefusedAndRunsInASlowThread() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        AtomicInteger requests = new AtomicInteger();
        server.createContext(
                "/",
                ex -> {
                    requests.incrementAndGet();
                    byte[] b = "ok".getBytes(StandardCharsets.UTF_8);
                    ex.sendResponseHeaders(200, b.length);
                    ex.getResponseBody().write(b);
                    ex.close();
                });
        server.start();
        ListAppender<ILoggingEvent> logs = new ListAppender<>();
        Logger sourceLog = (Logger) LoggerFactory.getLogger(Source.class);
        sourceLog.addAppender(logs);
        logs.start();
        String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/";
        Station s =
                Station.load(
                        "s.groovy",
                        """
                def t = tone(440, id: 'music')
                t.onTrack { m -> http.get('%1$s') }
                thread.run(fast: false) { -> log.info("off the clock: ${http.get('%1$s').status}") }
                thread.run { -> try { http.get('%1$s') } catch (e) { log.info(e.message) } }
                out.sink(t, id: 'radio')
                """
                                .formatted(url),
                        ScriptCompilerTest.functions(),
                        Map.of());
        try {
            s.start(null);
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (s.scriptLog().recent().size() < 2 && System.nanoTime() < deadline)
                Thread.sleep(20);
            long ticks = s.clocks().getFirst().getTicks();
            Thread.sleep(300);
            assertTrue(
                    s.clocks().getFirst().getTicks() > ticks + 5,
                    "the clock goes on after the refused call");
        } finally {
            s.stop();
            server.stop(0);
            sourceLog.detachAppender(logs);
        }
        assertEquals(
                List.of(
                        "info: off the clock: 200",
                        "info: s.groovy:4: http.get() would block the scheduler (a thread.run "
                                + "function with fast: true runs there); call it inside thread.run(fast: false) { ... }"),
                s.scriptLog().recent().stream().sorted().toList());
        List<String> refused = logs.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
        assertEquals(
                List.of(
                        "music: a callback failed, the stream goes on: s.groovy:2: http.get() would block the clock radio; "
                                + "call it inside thread.run(fast: false) { ... }"),
                refused);
        assertEquals(1, requests.get(), "only the call off the clock reached the server");
    }

    /** An operator declared blocking (autocue.analyze reads a whole file) is guarded as http is. */
    @Test
    void aBlockingOperatorOnAFastThreadIsRefusedAndRunsInASlowThread() throws Exception {
        var functions = ScriptCompilerTest.functions();
        AtomicInteger calls = new AtomicInteger();
        functions.add(
                org.groovecast.api.OperatorSpec.named("slow.measure")
                        .blocking()
                        .returns(org.groovecast.api.ValueType.STRING)
                        .create(a -> "measured " + calls.incrementAndGet()),
                "test");
        Station s =
                Station.load(
                        "s.groovy",
                        """
                def t = tone(440, id: 'music')
                thread.run(fast: false) { -> log.info("off the clock: ${slow.measure()}") }
                thread.run { -> try { slow.measure() } catch (e) { log.info(e.message) } }
                out.sink(t, id: 'radio')
                """,
                        functions,
                        Map.of());
        try {
            s.start(null);
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (s.scriptLog().recent().size() < 2 && System.nanoTime() < deadline)
                Thread.sleep(20);
        } finally {
            s.stop();
        }
        assertEquals(
                List.of(
                        "info: off the clock: measured 1",
                        "info: s.groovy:3: slow.measure() would block the scheduler (a thread.run "
                                + "function with fast: true runs there); call it inside thread.run(fast: false) { ... }"),
                s.scriptLog().recent().stream().sorted().toList());
        assertEquals(1, calls.get(), "only the call off the scheduler ran");
    }

    @Test
    void aBlockingCallOnANetworkEventLoopIsRefusedAndOffItAllowed() throws Exception {
        Vertx vertx = Vertx.vertx();
        try {
            CompletableFuture<String> onLoop = new CompletableFuture<>();
            vertx.runOnContext(
                    v -> {
                        try {
                            BlockingGuard.check("http.get()");
                            onLoop.complete("allowed");
                        } catch (ScriptException e) {
                            onLoop.complete(e.getMessage());
                        }
                    });
            assertEquals(
                    "http.get() would block a network event loop (which serves every connection on it: harbor "
                            + "handlers and control commands run there); call it inside thread.run(fast: false) { ... }",
                    onLoop.get(10, TimeUnit.SECONDS));
            CompletableFuture<String> worker = new CompletableFuture<>();
            vertx.executeBlocking(
                            () -> {
                                BlockingGuard.check("http.get()");
                                return "allowed";
                            })
                    .onComplete(
                            r ->
                                    worker.complete(
                                            r.succeeded() ? r.result() : r.cause().getMessage()));
            assertEquals(
                    "allowed",
                    worker.get(10, TimeUnit.SECONDS),
                    "a Vert.x worker (off the loop) may block");
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }
}
