package org.groovecast.host.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import org.groovecast.host.Station;
import org.groovecast.host.script.ScriptCompilerTest;
import org.groovecast.host.script.ScriptErrors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * http.get/post/put/head/delete from a script's top level (where it may block) against a local
 * server.
 */
class HttpFunctionsTest {
    private HttpServer server;

    /** What the server was asked: method, path, X-Key and Content-Type headers, body. */
    private final List<String> asked = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext(
                "/echo",
                ex -> {
                    String body =
                            new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                    String line =
                            ex.getRequestMethod()
                                    + " "
                                    + ex.getRequestURI()
                                    + " key="
                                    + ex.getRequestHeaders().getFirst("X-Key")
                                    + " type="
                                    + ex.getRequestHeaders().getFirst("Content-Type")
                                    + " agent="
                                    + ex.getRequestHeaders().getFirst("User-Agent")
                                    + " body="
                                    + body;
                    asked.add(line);
                    ex.getResponseHeaders().add("Content-Type", "application/json; charset=utf-8");
                    ex.getResponseHeaders().add("X-Seen", "yes");
                    reply(
                            ex,
                            200,
                            "{\"method\":\""
                                    + ex.getRequestMethod()
                                    + "\",\"body\":\""
                                    + body.replace("\"", "'")
                                    + "\"}");
                });
        server.createContext(
                "/status/",
                ex -> {
                    int code =
                            Integer.parseInt(
                                    ex.getRequestURI().getPath().substring("/status/".length()));
                    reply(ex, code, "code " + code);
                });
        server.createContext(
                "/slow",
                ex -> {
                    try {
                        Thread.sleep(3000);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    reply(ex, 200, "late");
                });
        server.createContext(
                "/latin1",
                ex -> {
                    ex.getResponseHeaders().add("Content-Type", "text/plain; charset=ISO-8859-1");
                    byte[] b = "café".getBytes(StandardCharsets.ISO_8859_1);
                    ex.sendResponseHeaders(200, b.length);
                    ex.getResponseBody().write(b);
                    ex.close();
                });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    static void reply(HttpExchange ex, int code, String text) throws IOException {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        if (ex.getRequestMethod().equals("HEAD")) {
            ex.sendResponseHeaders(code, -1);
        } else {
            ex.sendResponseHeaders(code, b.length);
            ex.getResponseBody().write(b);
        }
        ex.close();
    }

    String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    /** Loads {@code script} (URL/ standing for the server) and returns what it logged. */
    List<String> run(String script) {
        Station s =
                Station.load(
                        "s.groovy",
                        script.replace("URL/", url("/")) + "\nout.sink(tone())\n",
                        ScriptCompilerTest.functions(),
                        Map.of());
        return s.scriptLog().recent();
    }

    @Test
    void getReturnsStatusHeadersAndBodyAndSendsTheHeadersGiven() {
        List<String> log =
                run(
                        """
                def r = http.get('URL/echo?x=1', headers: ['X-Key': 'k1'])
                log.info("${r.status} ${r.headers['content-type']} ${r.headers['X-SEEN']} ${r.body}")
                log.info('as a string: ' + r)
                """);
        assertEquals(
                List.of(
                        "info: 200 application/json; charset=utf-8 yes {\"method\":\"GET\",\"body\":\"\"}",
                        "info: as a string: {\"method\":\"GET\",\"body\":\"\"}"),
                log);
        assertEquals(List.of("GET /echo?x=1 key=k1 type=null agent=Groovecast body="), asked);
    }

    @Test
    void postPutAndDeleteSendTheirDataAndHeadHasNoBody() {
        List<String> log =
                run(
                        """
                def p = http.post('URL/echo', data: '{"title":"Été"}', headers: ['Content-Type': 'application/json'])
                def u = http.put('URL/echo', data: 'x=1')
                def d = http.delete('URL/echo')
                def h = http.head('URL/echo')
                log.info("${p.status} ${p.body}")
                log.info("${u.body} ${d.body}")
                log.info("${h.status} [${h.body}] ${h.headers['X-Seen']}")
                """);
        assertEquals(
                List.of(
                        "info: 200 {\"method\":\"POST\",\"body\":\"{'title':'Été'}\"}",
                        "info: {\"method\":\"PUT\",\"body\":\"x=1\"} {\"method\":\"DELETE\",\"body\":\"\"}",
                        "info: 200 [] yes"),
                log);
        assertEquals(
                List.of(
                        "POST /echo key=null type=application/json agent=Groovecast body={\"title\":\"Été\"}",
                        "PUT /echo key=null type=null agent=Groovecast body=x=1",
                        "DELETE /echo key=null type=null agent=Groovecast body=",
                        "HEAD /echo key=null type=null agent=Groovecast body="),
                asked);
    }

    @Test
    void errorStatusesAreAnswersNotFailuresAndBodiesAreDecodedWithTheirCharset() {
        List<String> log =
                run(
                        """
                log.info("${http.get('URL/status/404').status} ${http.get('URL/status/500')}")
                log.info(http.get('URL/latin1').body)
                """);
        assertEquals(List.of("info: 404 code 500", "info: café"), log);
    }

    @Test
    void theResultReadsAsItsBodyWhereAStringIsExpected() {
        List<String> log =
                run(
                        """
                def m = json.parse(http.get('URL/echo')) as Map
                log.info("${m.method}")
                """);
        assertEquals(List.of("info: GET"), log);
    }

    @Test
    void noAnswerInTimeIsAnErrorTheScriptCatches() {
        List<String> log =
                run(
                        """
                long t0 = System.nanoTime()
                try {
                    http.get('URL/slow', timeout: 0.5)
                    log.info('answered')
                } catch (e) {
                    log.info(e.message)
                }
                log.info("${System.nanoTime() - t0 < 2_000_000_000L}")
                """);
        assertEquals(
                List.of(
                        "info: s.groovy:3: http.get('"
                                + url("/slow")
                                + "'): no answer within 0.5 s",
                        "info: true"),
                log);
    }

    @Test
    void aClosedPortOrABadUrlIsAClearErrorNotACrash() throws IOException {
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        List<String> log =
                run(
                        """
                for (String u : ['http://127.0.0.1:%d/x', 'ftp://example.com/a', 'http://exa mple.com/', 'http:///path']) {
                    try {
                        http.get(u)
                    } catch (e) {
                        log.info(e.message)
                    }
                }
                """
                                .formatted(closed));
        assertEquals(
                List.of(
                        "info: s.groovy:3: http.get('http://127.0.0.1:"
                                + closed
                                + "/x'): cannot connect to 127.0.0.1:"
                                + closed
                                + " (connection refused)",
                        "info: s.groovy:3: http.get('ftp://example.com/a'): only http:// and https:// URLs can be requested",
                        "info: s.groovy:3: http.get('http://exa mple.com/'): not a URL (Illegal character in authority at index 10)",
                        "info: s.groovy:3: http.get('http:///path'): the URL names no host"),
                log);
    }

    @Test
    void aWrongPropertyOrParameterIsFoundBeforeAnythingRuns() {
        ScriptErrors e =
                assertThrows(
                        ScriptErrors.class,
                        () ->
                                run(
                                        """
                def r = http.get('URL/echo')
                log.info("${r.stauts}")
                http.get('URL/echo', data: 'x')
                """));
        assertEquals(2, e.errors().size(), e.getMessage());
        assertTrue(
                e.errors()
                        .get(0)
                        .getMessage()
                        .startsWith(
                                "s.groovy:2: No such property: stauts for class: "
                                        + HttpResult.class.getName()),
                e.getMessage());
        assertEquals(
                "s.groovy:3: http.get() has no parameter data: (it takes headers:, timeout:, redirect:)",
                e.errors().get(1).getMessage());
        assertEquals(List.of(), asked, "nothing ran");
    }
}
