package org.groovecast.host.clock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.groovecast.api.AudioFormat;
import org.groovecast.host.sched.TaskScheduler;
import org.junit.jupiter.api.Test;

class ClockCatchUpTest {
    private static final AudioFormat FORMAT = new AudioFormat(1000, 1);

    /** 20 ms frames at 1 kHz, warning from 50 ms behind; {@code skipLag} 0 to catch up. */
    private static ClockConfig config(double skipLag) {
        return new ClockConfig(FORMAT, 20, 60_000_000_000L, 50_000_000L, 0)
                .withSkipLag((long) (skipLag * 1e9));
    }

    /** A clock whose first frame takes 600 ms, as one started in a storm; its ticks after 1.2 s. */
    private static Clock stalledAtStart(TaskScheduler scheduler, double skipLag, StallingOutput out)
            throws Exception {
        TaskClock clock = new TaskClock("c", Sync.AUTO, config(skipLag), scheduler);
        clock.attach(List.of(out), Runnable::run);
        out.start();
        clock.start(0, () -> {});
        Thread.sleep(1200);
        return clock;
    }

    @Test
    void byDefaultAClockThatStartsBehindCatchesUpAndDropsNothing() throws Exception {
        try (TaskScheduler scheduler = new TaskScheduler(1, Duration.ofMillis(1), 64)) {
            StallingOutput out = new StallingOutput("o", 1, 600);
            Clock clock = stalledAtStart(scheduler, 0, out);
            long ticks = clock.getTicks();
            clock.stop();
            assertEquals(0.0, clock.getSkipped());
            // 1.2 s of real time is 60 frames: all produced, the 30 of the stall back to back.
            assertTrue(ticks >= 55, "caught up: " + ticks + " frames");
        }
    }

    @Test
    void withSkipAClockThatStartsBehindDropsTheLostTimeAndCountsIt() throws Exception {
        try (TaskScheduler scheduler = new TaskScheduler(1, Duration.ofMillis(1), 64)) {
            StallingOutput out = new StallingOutput("o", 1, 600);
            Clock clock = stalledAtStart(scheduler, 0.2, out);
            long ticks = clock.getTicks();
            double lag = clock.getLag();
            clock.stop();
            // The 600 ms stall less the frame it produced: 29 frames' worth, dropped at once.
            assertEquals(0.58, clock.getSkipped(), 0.05, "skipped");
            assertTrue(ticks <= 40, "no catch-up: " + ticks + " frames");
            assertTrue(lag < 0.05, "on time after the skip: lag " + lag);
        }
    }

    @Test
    void aClockBehindSaysSinceWhenAndAClockOnTimeDoesNot() throws Exception {
        // Warning from 200 ms behind: a quick clock on a busy machine stays well within that.
        ClockConfig config = new ClockConfig(FORMAT, 20, 60_000_000_000L, 200_000_000L, 0);
        try (TaskScheduler scheduler = new TaskScheduler(2, Duration.ofMillis(1), 64)) {
            long before = System.currentTimeMillis();
            StallingOutput slow = new StallingOutput("slow", Integer.MAX_VALUE, 30);
            StallingOutput quick = new StallingOutput("quick", 0, 0);
            TaskClock behind = new TaskClock("behind", Sync.AUTO, config, scheduler);
            TaskClock onTime = new TaskClock("onTime", Sync.AUTO, config, scheduler);
            behind.attach(List.of(slow), Runnable::run);
            onTime.attach(List.of(quick), Runnable::run);
            slow.start();
            quick.start();
            behind.start(0, () -> {});
            onTime.start(0, () -> {});
            Thread.sleep(1000);
            double since = behind.getBehindSince();
            behind.stop();
            onTime.stop();
            // 30 ms per 20 ms frame: 200 ms behind after about 400 ms.
            assertTrue(
                    since * 1e3 >= before + 300 && since * 1e3 <= before + 900,
                    "behind since " + (since * 1e3 - before) + " ms after the start");
            assertEquals(0.0, onTime.getBehindSince());
        }
    }

    @Test
    void withSkipAClockThatCannotKeepUpStaysMarkedBehindThoughItsLagIsReset() throws Exception {
        try (TaskScheduler scheduler = new TaskScheduler(1, Duration.ofMillis(1), 64)) {
            StallingOutput slow = new StallingOutput("slow", Integer.MAX_VALUE, 30);
            TaskClock clock = new TaskClock("c", Sync.AUTO, config(0.1), scheduler);
            clock.attach(List.of(slow), Runnable::run);
            slow.start();
            clock.start(0, () -> {});
            double maxLag = 0;
            for (int i = 0; i < 40; i++) {
                Thread.sleep(25);
                maxLag = Math.max(maxLag, clock.getLag());
            }
            double since = clock.getBehindSince();
            double skipped = clock.getSkipped();
            clock.stop();
            assertTrue(maxLag < 0.15, "lag kept under the skip lag: " + maxLag);
            assertTrue(skipped > 0.2, "skipped " + skipped);
            assertTrue(since > 0, "still behind");
        }
    }
}
