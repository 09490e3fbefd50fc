package org.groovecast.host;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.groovecast.api.Frame;
import org.groovecast.api.Generator;
import org.groovecast.api.OperatorSpec;
import org.groovecast.api.Output;
import org.groovecast.api.Source;
import org.groovecast.api.ValueType;
import org.groovecast.host.script.ScriptFunctions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reload's hand-over takes its steps in the order docs/decisions/0002 gives: the old clocks
 * stop before the new output takes the old one's place, the old output closes after that, and only
 * then does the new one write; one writer at a time, never both.
 */
class ReloadHandOverTest {
    @TempDir Path dir;

    private final List<String> events = Collections.synchronizedList(new ArrayList<>());
    private final AtomicInteger made = new AtomicInteger();

    @Test
    void theOldOutputStopsWritingBeforeTheNewTakesOverAndTheNewWritesOnlyAfterTheOldClosed()
            throws Exception {
        Path script = dir.resolve("radio.groovy");
        Files.writeString(script, "out.rec(tone(), id: 'air')\n");
        StationReloader reloader = new StationReloader(script, functions(), Map.of());
        try {
            Station first = reloader.start();
            awaitEvent("send 1");

            assertTrue(reloader.reload());
            Station second = reloader.current();
            assertNotSame(first, second);
            awaitEvent("send 2");
            assertTrue(first.awaitStopped(Duration.ofSeconds(5)), "the old station released");

            List<String> seen;
            synchronized (events) {
                seen = List.copyOf(events);
            }
            int lastOld = seen.lastIndexOf("send 1");
            int adopt = seen.indexOf("adopt 2 from 1");
            int closeOld = seen.indexOf("close 1");
            int firstNew = seen.indexOf("send 2");
            assertTrue(lastOld < adopt, "the old clocks stopped before the takeover: " + seen);
            assertTrue(adopt < closeOld, "the old output closed after the takeover: " + seen);
            assertTrue(closeOld < firstNew, "the new output wrote after the old closed: " + seen);
        } finally {
            reloader.stop();
        }
    }

    @Test
    void aScriptThatFailsLeavesTheRunningStationAndItsOutputAsTheyWere() throws Exception {
        Path script = dir.resolve("radio.groovy");
        Files.writeString(script, "out.rec(tone(), id: 'air')\n");
        StationReloader reloader = new StationReloader(script, functions(), Map.of());
        try {
            Station first = reloader.start();
            Files.writeString(script, "out.rec(tone(), id: 'air'\n");
            assertFalse(reloader.reload());
            assertSame(first, reloader.current());
            events.clear();
            awaitEvent("send 1");
            assertFalse(events.contains("close 1"), "the running output never closed");
        } finally {
            reloader.stop();
        }
    }

    private void awaitEvent(String e) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (!events.contains(e)) {
            if (System.nanoTime() > deadline) throw new AssertionError("no " + e + " in " + events);
            Thread.sleep(5);
        }
    }

    private ScriptFunctions functions() {
        ScriptFunctions f = new ScriptFunctions();
        f.add(
                OperatorSpec.named("tone")
                        .create(
                                a ->
                                        new Generator("tone") {
                                            @Override
                                            protected void generate(Frame frame) {
                                                frame.silence(frame.free());
                                            }
                                        }),
                "test");
        f.add(
                OperatorSpec.named("out.rec")
                        .positional("source", ValueType.SOURCE, "input")
                        .returns(ValueType.OUTPUT)
                        .create(a -> new Recording(a.source("source"), made.incrementAndGet())),
                "test");
        return f;
    }

    /** An output that records each frame it writes, its takeover and its close. */
    private final class Recording extends Output {
        final int n;

        Recording(Source s, int n) {
            super("rec", s, false);
            this.n = n;
        }

        @Override
        protected void send(Frame frame) {
            events.add("send " + n);
        }

        @Override
        protected void adopt(Source previous) {
            events.add("adopt " + n + " from " + ((Recording) previous).n);
        }

        @Override
        protected void close() {
            events.add("close " + n);
        }
    }
}
