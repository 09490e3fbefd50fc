package org.groovecast.host.clock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.Frame;
import org.groovecast.api.Output;
import org.groovecast.host.sched.TaskScheduler;
import org.junit.jupiter.api.Test;

class ClockAdmissionTest {
    private static final AudioFormat FORMAT = new AudioFormat(1000, 1);
    private static final ClockConfig CONFIG =
            new ClockConfig(FORMAT, 20, 60_000_000_000L, 50_000_000L, 0);

    @Test
    void atMostJoiningClocksRunTheirCostlyFirstFramesAtOnceAndAllStartInTheEnd() throws Exception {
        try (TaskScheduler scheduler = new TaskScheduler(4, Duration.ofMillis(1), 64)) {
            AtomicInteger inSlowFrames = new AtomicInteger();
            AtomicInteger most = new AtomicInteger();
            List<Clock> clocks = new ArrayList<>();
            List<StallingOutput> outs = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                // Three first frames of 30 ms each: 90 ms of work before the clock is on time.
                StallingOutput o = new StallingOutput("o" + i, 3, 30, inSlowFrames, most);
                TaskClock c = new TaskClock("c" + i, Sync.AUTO, CONFIG, scheduler);
                c.attach(List.of(o), Runnable::run);
                o.start();
                clocks.add(c);
                outs.add(o);
            }
            ClockAdmission admission =
                    ClockAdmission.start(clocks, 2, 1, CONFIG.frameNanos(), 0, 0, true, () -> {});
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (admission.waiting() > 0 && System.nanoTime() < deadline) Thread.sleep(20);
            Thread.sleep(300);
            for (Clock c : clocks) c.stop();
            assertEquals(0, admission.waiting(), "every clock started");
            for (StallingOutput o : outs) assertTrue(o.sent.get() > 5, o.id() + " ran");
            assertEquals(2, most.get(), "clocks in their first frames at once");
        }
    }

    @Test
    void clocksStartedLaterKeepTheStationsDeadlines() throws Exception {
        try (TaskScheduler scheduler = new TaskScheduler(2, Duration.ofMillis(1), 64)) {
            List<Clock> clocks = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                StallingOutput o = new StallingOutput("o" + i, 1, 10);
                TaskClock c = new TaskClock("c" + i, Sync.AUTO, CONFIG, scheduler);
                c.attach(List.of(o), Runnable::run);
                o.start();
                clocks.add(c);
            }
            long frame = CONFIG.frameNanos();
            ClockAdmission admission =
                    ClockAdmission.start(clocks, 1, 2, frame, 0, 0, true, () -> {});
            long grid = admission.gridNanos();
            Thread.sleep(800);
            for (Clock c : clocks) c.stop();
            // Started one after the other, each on the deadline of its phase: 0 or half a frame.
            for (int i = 0; i < clocks.size(); i++) {
                long due = clocks.get(i).nextDue();
                long phase = Math.floorMod(due - grid, frame);
                long wanted = (i % 2) * frame / 2;
                assertTrue(
                        Math.abs(phase - wanted) < 2_000_000,
                        "clock " + i + " phase " + phase / 1e6 + " ms, wanted " + wanted / 1e6);
            }
        }
    }

    @Test
    void aReloadsHeadStartIsRunAtOnceAsWhenTheClockStartedAlone() throws Exception {
        try (TaskScheduler scheduler = new TaskScheduler(1, Duration.ofMillis(1), 64)) {
            StallingOutput o = new StallingOutput("o", 0, 0);
            TaskClock c = new TaskClock("c", Sync.AUTO, CONFIG, scheduler);
            c.attach(List.of(o), Runnable::run);
            o.start();
            long frame = CONFIG.frameNanos();
            long headStart = 3 * frame;
            long before = System.nanoTime();
            ClockAdmission.start(List.of(c), 1, 1, frame, 0, headStart, false, () -> {});
            long after = System.nanoTime();
            Thread.sleep(200);
            c.stop();
            // The stream's time starts the whole head start before the clock did.
            long origin = c.nextDue() - c.getTicks() * frame;
            assertTrue(
                    origin >= before - headStart - 1_000_000 && origin <= after - headStart,
                    "stream time starts " + (after - origin) / 1e6 + " ms before the start");
        }
    }

    @Test
    void aJoinedClockLetsTheNextStartOnlyOnceTheRunningOnesKeepUpOrAfterTheHold() throws Exception {
        long waited = thirdClocksWait(true);
        // The second clock joins by the timeout (0.5 s after its start); its release of the third
        // is then held while the first is late, for at most the hold (0.5 s more).
        assertTrue(
                waited >= Clock.JOIN_TIMEOUT_NANOS + ClockAdmission.HOLD_NANOS * 8 / 10,
                "the third clock started " + waited / 1e6 + " ms after the second");
    }

    @Test
    void aReloadsSuccessorStartsItsClocksWithoutWaitingForTheRunningOnes() throws Exception {
        long waited = thirdClocksWait(false);
        assertTrue(
                waited < Clock.JOIN_TIMEOUT_NANOS + ClockAdmission.HOLD_NANOS / 2,
                "the third clock started " + waited / 1e6 + " ms after the second");
    }

    /**
     * Three clocks, one joining at a time: the first late once joined, the second joining by the
     * timeout; how long after the second the third started.
     */
    private static long thirdClocksWait(boolean paced) throws Exception {
        try (TaskScheduler scheduler = new TaskScheduler(4, Duration.ofMillis(1), 64)) {
            // Joins on time, then each frame takes 60 ms of its 20: late from its eighth frame on.
            LateOutput running = new LateOutput("running", 5, 60);
            // Its first frames are slow: it joins by the timeout, by when the first one is late.
            StallingOutput joining = new StallingOutput("joining", 40, 60);
            StallingOutput next = new StallingOutput("next", 0, 0);
            List<Clock> clocks = new ArrayList<>();
            for (Output o : List.of(running, joining, next)) {
                TaskClock c = new TaskClock("c-" + o.id(), Sync.AUTO, CONFIG, scheduler);
                c.attach(List.of(o), Runnable::run);
                o.start();
                clocks.add(c);
            }
            ClockAdmission admission =
                    ClockAdmission.start(clocks, 1, 1, CONFIG.frameNanos(), 0, 0, paced, () -> {});
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (next.firstFrameNanos == 0 && System.nanoTime() < deadline) Thread.sleep(10);
            for (Clock c : clocks) c.stop();
            assertEquals(0, admission.waiting(), "every clock started, the late one running");
            return next.firstFrameNanos - joining.firstFrameNanos;
        }
    }

    /** Frames on time until {@code fromFrame}, then each takes {@code millis}. */
    private static final class LateOutput extends Output {
        private final int fromFrame;
        private final long millis;
        private int sent;

        LateOutput(String id, int fromFrame, long millis) {
            super(id, new StallingOutput.Silence(), false);
            this.fromFrame = fromFrame;
            this.millis = millis;
        }

        @Override
        protected void send(Frame frame) throws InterruptedException {
            if (sent++ >= fromFrame) Thread.sleep(millis);
        }

        @Override
        protected void close() {}
    }
}
