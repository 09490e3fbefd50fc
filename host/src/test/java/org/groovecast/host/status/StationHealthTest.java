package org.groovecast.host.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.groovecast.api.ClockInfo;
import org.groovecast.api.Connecting;
import org.groovecast.api.Frame;
import org.groovecast.api.Output;
import org.groovecast.api.Source;
import org.groovecast.api.TestSources;
import org.junit.jupiter.api.Test;

class StationHealthTest {
    /** A clock whose lag and behind-since the test sets. */
    private static final class FakeClock implements ClockInfo {
        final String id;
        volatile double lag;
        volatile double behindSince;

        FakeClock(String id) {
            this.id = id;
        }

        @Override
        public String getId() {
            return id;
        }

        @Override
        public double getDuty() {
            return 0.1;
        }

        @Override
        public double getLag() {
            return lag;
        }

        @Override
        public double getBehindSince() {
            return behindSince;
        }

        @Override
        public long getTicks() {
            return 0;
        }

        @Override
        public double getTime() {
            return 0;
        }
    }

    /** An output streaming to a peer, up or down as the test says. */
    private static final class Relay extends Output implements Connecting {
        volatile boolean connected;

        Relay(String id, Source source, boolean fallible) {
            super("output.relay", source, fallible);
            setId(id);
        }

        @Override
        protected void send(Frame frame) {}

        @Override
        public boolean isConnected() {
            return connected;
        }
    }

    /** An output that holds no connection (a file, a harbor mount). */
    private static final class Local extends Output {
        Local(Source source) {
            super("output.local", source, false);
            setId("local");
        }

        @Override
        protected void send(Frame frame) {}
    }

    /** A source that may stop producing (a playlist, a live input). */
    private static final class Flaky extends Source {
        Flaky() {
            super("flaky");
        }

        @Override
        public boolean isReady() {
            return false;
        }

        @Override
        public boolean isFallible() {
            return true;
        }

        @Override
        protected void generate(Frame frame) {}
    }

    private final AtomicLong schedulerRan = new AtomicLong(System.nanoTime());
    private final FakeClock clock = new FakeClock("radio");
    private final Relay relay = new Relay("relay", new TestSources.Counter(100), false);
    private final Relay optional = new Relay("optional", new Flaky(), true);
    private final StationHealth health =
            new StationHealth(
                    List.of(clock),
                    List.of(relay, optional, new Local(new TestSources.Counter(100))),
                    schedulerRan::get,
                    2);

    @Test
    void liveWhileTheSchedulerStartsTasksWithinTheLimit() {
        assertTrue(health.isLive());
        assertEquals(true, health.liveness("a.groovy").get("live"));
        schedulerRan.set(System.nanoTime() - 3_000_000_000L);
        assertFalse(health.isLive());
        Map<String, Object> body = health.liveness("a.groovy");
        assertEquals(false, body.get("live"));
        assertEquals("a.groovy", body.get("station"));
        assertTrue((double) body.get("schedulerIdle") >= 3, body.toString());
    }

    @Test
    void readyOnlyWithEveryClockOnTimeAndEveryConnectionOfAnInfallibleSourceUp() {
        relay.connected = true;
        Map<String, Object> body = health.readiness("a.groovy");
        assertEquals(true, body.get("ready"), body.toString());
        assertNull(body.get("outputs"), "the output of a fallible source, down, does not count");
        assertNull(body.get("clocks"));

        relay.connected = false;
        body = health.readiness("a.groovy");
        assertEquals(false, body.get("ready"));
        assertEquals(
                List.of(Map.of("id", "relay", "kind", "output.relay", "connected", false)),
                body.get("outputs"));

        relay.connected = true;
        clock.lag = 0.75;
        clock.behindSince = 1_765_000_000.5;
        body = health.readiness("a.groovy");
        assertEquals(false, body.get("ready"));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> clocks = (List<Map<String, Object>>) body.get("clocks");
        assertEquals(1, clocks.size());
        assertEquals("radio", clocks.get(0).get("id"));
        assertEquals(0.75, clocks.get(0).get("lag"));
        assertEquals("2025-12-06T05:46:40.500Z", clocks.get(0).get("behindSince"));
    }

    @Test
    void aStuckSchedulerIsNotReadyEither() {
        relay.connected = true;
        schedulerRan.set(System.nanoTime() - 5_000_000_000L);
        Map<String, Object> body = health.readiness("a.groovy");
        assertEquals(false, body.get("ready"));
        assertTrue(String.valueOf(body.get("scheduler")).startsWith("no task started for"));
    }
}
