package org.groovecast.host.clock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.Frame;
import org.groovecast.api.Generator;
import org.groovecast.api.Output;
import org.groovecast.host.sched.TaskScheduler;
import org.junit.jupiter.api.Test;

class ClockTest {
    private static final AudioFormat FORMAT = new AudioFormat(1000, 1);

    /** 20 ms frames at 1 kHz; lag thresholds in seconds. */
    private static ClockConfig config(double maxLatency) {
        return new ClockConfig(FORMAT, 20, (long) (maxLatency * 1e9), 50_000_000L, 0);
    }

    private static final class Silence extends Generator {
        Silence() {
            super("silence");
        }

        @Override
        protected void generate(Frame frame) {
            frame.silence(frame.free());
        }
    }

    /** An output whose every frame costs {@code workMillis} of wall time. */
    private static final class SlowOutput extends Output {
        final long workMillis;
        final AtomicInteger sent = new AtomicInteger();
        final AtomicInteger closed = new AtomicInteger();
        final AtomicBoolean sentAfterClose = new AtomicBoolean();
        final CountDownLatch inSend = new CountDownLatch(1);

        SlowOutput(long workMillis) {
            super("slow", new Silence(), false);
            this.workMillis = workMillis;
        }

        @Override
        protected void send(Frame frame) throws InterruptedException {
            if (closed.get() > 0) sentAfterClose.set(true);
            inSend.countDown();
            Thread.sleep(workMillis);
            sent.incrementAndGet();
        }

        @Override
        protected void close() {
            closed.incrementAndGet();
        }
    }

    @Test
    void aClockThatCannotKeepUpReportsItsLagAndDutyAndDropsItsBacklogPastMaxLatency()
            throws Exception {
        try (TaskScheduler scheduler = new TaskScheduler(1, Duration.ofMillis(1), 64)) {
            SlowOutput out = new SlowOutput(30); // 30 ms of work per 20 ms frame
            TaskClock clock = new TaskClock("slow", Sync.AUTO, config(0.3), scheduler);
            clock.attach(List.of(out), Runnable::run);
            out.start();
            clock.start(0, () -> {});
            double maxLag = 0;
            for (int i = 0; i < 40; i++) {
                Thread.sleep(25);
                maxLag = Math.max(maxLag, clock.getLag());
            }
            clock.stop();
            assertTrue(clock.getDuty() > 1.2, "duty " + clock.getDuty());
            assertTrue(maxLag > 0.1, "lag should build up, max " + maxLag);
            assertTrue(maxLag < 0.3 + 0.1, "lag should be reset past maxLatency, max " + maxLag);
        }
    }

    @Test
    void anOnTimeClockHasNoLagAndALowDuty() throws Exception {
        try (TaskScheduler scheduler = new TaskScheduler(1, Duration.ofMillis(1), 64)) {
            SlowOutput out = new SlowOutput(0);
            TaskClock clock = new TaskClock("quick", Sync.AUTO, config(60), scheduler);
            clock.attach(List.of(out), Runnable::run);
            out.start();
            clock.start(0, () -> {});
            Thread.sleep(500);
            clock.stop();
            assertEquals(0.0, clock.getLag(), 0.02);
            assertTrue(clock.getDuty() < 0.5, "duty " + clock.getDuty());
            long expected = 500 / 20;
            assertTrue(Math.abs(clock.getTicks() - expected) <= 2, "ticks " + clock.getTicks());
        }
    }

    @Test
    void stoppingWaitsForTheTickInFlightAndNothingIsSentAfterTheOutputCloses() throws Exception {
        for (boolean taskMode : new boolean[] {true, false}) {
            try (TaskScheduler scheduler = new TaskScheduler(1, Duration.ofMillis(1), 64)) {
                SlowOutput out = new SlowOutput(100);
                Clock clock =
                        taskMode
                                ? new TaskClock("c", Sync.AUTO, config(60), scheduler)
                                : new ThreadClock("c", Sync.AUTO, config(60));
                clock.attach(List.of(out), Runnable::run);
                out.start();
                clock.start(0, () -> {});
                assertTrue(out.inSend.await(1, TimeUnit.SECONDS));
                clock.stop(); // the tick is mid-send
                int sentAtStop = out.sent.get();
                assertTrue(sentAtStop >= 1, "the tick in flight completed before stop returned");
                out.stop();
                Thread.sleep(150);
                assertEquals(sentAtStop, out.sent.get(), "no tick after stop");
                assertEquals(1, out.closed.get());
                assertTrue(!out.sentAfterClose.get());
            }
        }
    }

    /**
     * An output whose third frame fails with an Error, as a plugin's assert or a deep recursion.
     */
    private static final class BrokenOutput extends Output {
        final AtomicInteger closed = new AtomicInteger();
        int frames;

        BrokenOutput() {
            super("broken", new Silence(), false);
        }

        @Override
        protected void send(Frame frame) {
            if (++frames == 3) throw new AssertionError("broken");
        }

        @Override
        protected void close() {
            closed.incrementAndGet();
        }
    }

    @Test
    void anOutputFailingWithAnErrorIsStoppedAloneAndItsClockGoesOn() throws Exception {
        for (boolean taskMode : new boolean[] {true, false}) {
            try (TaskScheduler scheduler = new TaskScheduler(1, Duration.ofMillis(1), 64)) {
                SlowOutput good = new SlowOutput(0);
                BrokenOutput broken = new BrokenOutput();
                Clock clock =
                        taskMode
                                ? new TaskClock("c", Sync.AUTO, config(60), scheduler)
                                : new ThreadClock("c", Sync.AUTO, config(60));
                clock.attach(List.of(broken, good), Runnable::run);
                good.start();
                broken.start();
                clock.start(0, () -> {});
                Thread.sleep(300);
                int sent = good.sent.get();
                Thread.sleep(200);
                assertTrue(good.sent.get() > sent + 3, "the other output still gets frames");
                assertEquals(1, broken.closed.get(), "the failing output was stopped");
                long stopping = System.nanoTime();
                clock.stop();
                assertTrue(
                        System.nanoTime() - stopping < TimeUnit.SECONDS.toNanos(1),
                        "the clock's task is alive and stops at once");
            }
        }
    }

    @Test
    void anUnsyncedClockEndsByItselfAfterItsTicks() throws Exception {
        try (TaskScheduler scheduler = new TaskScheduler(1, Duration.ofMillis(1), 64)) {
            SlowOutput out = new SlowOutput(0);
            TaskClock clock = new TaskClock("fast", Sync.NONE, config(60), scheduler);
            clock.attach(List.of(out), Runnable::run);
            out.start();
            CountDownLatch ended = new CountDownLatch(1);
            long start = System.nanoTime();
            clock.start(5_000, ended::countDown); // 100 s of stream
            assertTrue(ended.await(10, TimeUnit.SECONDS));
            assertEquals(5_000, out.sent.get());
            assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(10));
        }
    }
}
