package org.groovecast.host.sched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class TaskSchedulerTest {
    private static final int BATCH = 64;

    /**
     * Immediate tasks that resubmit themselves forever: the worst flood a misbehaving operator
     * makes.
     */
    private static final class Rearming implements Runnable {
        final TaskScheduler scheduler;
        final AtomicBoolean stop;
        final AtomicLong runs;

        Rearming(TaskScheduler scheduler, AtomicBoolean stop, AtomicLong runs) {
            this.scheduler = scheduler;
            this.stop = stop;
            this.runs = runs;
        }

        @Override
        public void run() {
            runs.incrementAndGet();
            if (!stop.get()) scheduler.execute(this);
        }
    }

    @Test
    void closeWaitsForItsWorkersTogetherAndLeavesThoseStuckInATaskBehind() throws Exception {
        CountDownLatch started = new CountDownLatch(2);
        CountDownLatch never = new CountDownLatch(1); // a script callback looping for ever
        TaskScheduler scheduler = new TaskScheduler(2, Duration.ofMillis(1), 1);
        try {
            for (int i = 0; i < 2; i++) {
                scheduler.execute(
                        () -> {
                            started.countDown();
                            try {
                                never.await();
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        });
            }
            assertTrue(started.await(5, TimeUnit.SECONDS), "both workers are stuck");
            long start = System.nanoTime();
            scheduler.close();
            long took = System.nanoTime() - start;
            assertTrue(
                    took < TimeUnit.SECONDS.toNanos(8),
                    "one wait for both, not one per worker: " + took / 1_000_000 + " ms");
        } finally {
            never.countDown();
        }
    }

    @Test
    void lastRunAdvancesWhileTasksRunAndStandsStillWhileEveryWorkerIsStuck() throws Exception {
        CountDownLatch stuck = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (TaskScheduler scheduler = new TaskScheduler(1, Duration.ofMillis(1), BATCH)) {
            TaskScheduler view = scheduler.share(); // a station of many reads the shared workers
            long created = scheduler.lastRunNanos();
            CountDownLatch ran = new CountDownLatch(1);
            Thread.sleep(20);
            view.execute(ran::countDown);
            assertTrue(ran.await(5, TimeUnit.SECONDS));
            long afterTask = view.lastRunNanos();
            assertTrue(afterTask > created, "a task ran: the time moves");
            assertEquals(afterTask, scheduler.lastRunNanos());

            scheduler.execute(
                    () -> {
                        stuck.countDown();
                        try {
                            release.await();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    });
            assertTrue(stuck.await(5, TimeUnit.SECONDS));
            long wedged = scheduler.lastRunNanos();
            for (int i = 0; i < 20; i++) scheduler.execute(() -> {});
            scheduler.schedule(1, TimeUnit.MILLISECONDS, () -> {});
            Thread.sleep(100);
            assertEquals(wedged, scheduler.lastRunNanos(), "nothing starts behind a stuck worker");

            release.countDown();
            CountDownLatch after = new CountDownLatch(1);
            scheduler.execute(after::countDown);
            assertTrue(after.await(5, TimeUnit.SECONDS));
            assertTrue(scheduler.lastRunNanos() > wedged);
        } finally {
            release.countDown();
        }
    }

    @Test
    void aFloodOfSelfRearmingTasksStarvesNeitherTimersNorLaterTasksNorBlockingWork()
            throws Exception {
        try (TaskScheduler scheduler = new TaskScheduler(2, Duration.ofMillis(1), BATCH);
                BlockingPool blocking = new BlockingPool(4)) {
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong floodRuns = new AtomicLong();
            for (int i = 0; i < 200; i++)
                scheduler.execute(new Rearming(scheduler, stop, floodRuns));

            // A task queued behind the flood runs after at most one round of the 200 queued ones.
            CountDownLatch immediate = new CountDownLatch(1);
            AtomicLong floodRunsWhenImmediateRan = new AtomicLong();
            long enqueueStart = System.nanoTime();
            scheduler.execute(
                    () -> {
                        floodRunsWhenImmediateRan.set(floodRuns.get());
                        immediate.countDown();
                    });
            long before = floodRuns.get();
            assertTrue(
                    System.nanoTime() - enqueueStart < TimeUnit.SECONDS.toNanos(1),
                    "enqueueing took over a second");
            CountDownLatch timer = new CountDownLatch(1);
            long due = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(20);
            AtomicLong timerLate = new AtomicLong();
            scheduler.scheduleAt(
                    due,
                    () -> {
                        timerLate.set(System.nanoTime() - due);
                        timer.countDown();
                    });
            CountDownLatch blockingRan = new CountDownLatch(1);
            blocking.execute(blockingRan::countDown);

            assertTrue(immediate.await(2, TimeUnit.SECONDS), "immediate task starved");
            assertTrue(
                    floodRunsWhenImmediateRan.get() - before <= 200 + 2L * BATCH,
                    "immediate task waited for "
                            + (floodRunsWhenImmediateRan.get() - before)
                            + " flood runs");
            assertTrue(blockingRan.await(1, TimeUnit.SECONDS), "blocking task starved");
            assertTrue(timer.await(2, TimeUnit.SECONDS), "timer starved");
            assertTrue(
                    timerLate.get() < TimeUnit.MILLISECONDS.toNanos(500),
                    "timer late by " + timerLate.get() / 1e6 + " ms");
            assertTrue(floodRuns.get() > 1000, "the flood itself kept running");
            stop.set(true);
        }
    }

    @Test
    void aFloodOfBlockingTasksDoesNotDelayTimers() throws Exception {
        try (TaskScheduler scheduler = new TaskScheduler(2, Duration.ofMillis(1), BATCH);
                BlockingPool blocking = new BlockingPool(4)) {
            CountDownLatch release = new CountDownLatch(1);
            for (int i = 0; i < 100; i++) {
                blocking.execute(
                        () -> {
                            try {
                                release.await();
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        });
            }
            CountDownLatch ticks = new CountDownLatch(10);
            for (int i = 1; i <= 10; i++)
                scheduler.schedule(i * 5L, TimeUnit.MILLISECONDS, ticks::countDown);
            assertTrue(ticks.await(2, TimeUnit.SECONDS), "timers waited for blocking work");
            // The workers run niced below the clocks: on a loaded machine they may take a while to
            // be scheduled at all. What counts is the cap once they run, and that timers did not
            // wait for them.
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (blocking.inFlight() < 4 && System.nanoTime() < deadline) Thread.sleep(10);
            assertEquals(4, blocking.inFlight());
            assertEquals(96, blocking.queued());
            release.countDown();
        }
    }

    @Test
    void timersRunInDeadlineOrderAndCancelledOnesDoNot() throws Exception {
        try (TaskScheduler scheduler = new TaskScheduler(1, Duration.ZERO, BATCH)) {
            StringBuffer order = new StringBuffer();
            CountDownLatch done = new CountDownLatch(3);
            long now = System.nanoTime();
            scheduler.scheduleAt(
                    now + 30_000_000,
                    () -> {
                        order.append('c');
                        done.countDown();
                    });
            scheduler.scheduleAt(
                    now + 10_000_000,
                    () -> {
                        order.append('a');
                        done.countDown();
                    });
            TaskScheduler.Timer cancelled =
                    scheduler.scheduleAt(now + 15_000_000, () -> order.append('x'));
            scheduler.scheduleAt(
                    now + 20_000_000,
                    () -> {
                        order.append('b');
                        done.countDown();
                    });
            cancelled.cancel();
            assertTrue(done.await(2, TimeUnit.SECONDS));
            assertEquals("abc", order.toString());
        }
    }

    @Test
    void closeLetsRunningTasksFinishAndRefusesNewWork() throws Exception {
        TaskScheduler scheduler = new TaskScheduler(2, Duration.ofMillis(1), BATCH);
        CountDownLatch started = new CountDownLatch(2);
        AtomicInteger finished = new AtomicInteger();
        for (int i = 0; i < 2; i++) {
            scheduler.execute(
                    () -> {
                        started.countDown();
                        sleep(200);
                        finished.incrementAndGet();
                    });
        }
        assertTrue(started.await(1, TimeUnit.SECONDS));
        scheduler.close();
        assertEquals(2, finished.get(), "close returned before the tasks in flight finished");
        assertTrue(scheduler.isShutdown());
        boolean refused = false;
        try {
            scheduler.execute(() -> {});
        } catch (IllegalStateException expected) {
            refused = true;
        }
        assertTrue(refused);
    }

    @Test
    void busyTimeCountsTheTimeSpentRunningTasks() throws Exception {
        try (TaskScheduler scheduler = new TaskScheduler(1, Duration.ofMillis(1), BATCH)) {
            CountDownLatch done = new CountDownLatch(1);
            scheduler.execute(
                    () -> {
                        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50);
                        while (System.nanoTime() < end) Thread.onSpinWait();
                        done.countDown();
                    });
            assertTrue(done.await(2, TimeUnit.SECONDS));
            Thread.sleep(20);
            assertTrue(
                    scheduler.busyNanos() >= TimeUnit.MILLISECONDS.toNanos(50),
                    "busy " + scheduler.busyNanos());
            assertTrue(
                    scheduler.busyNanos() < TimeUnit.MILLISECONDS.toNanos(500),
                    "idle time is not busy time");
        }
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void aSharingSchedulerRunsOnTheSameWorkersAndItsCloseEndsOnlyItsOwnTimers() throws Exception {
        TaskScheduler pool = new TaskScheduler(2, Duration.ZERO, BATCH);
        try {
            TaskScheduler a = pool.share();
            TaskScheduler b = pool.share();
            assertEquals(2, a.threads());
            AtomicInteger aRuns = new AtomicInteger();
            CountDownLatch bRan = new CountDownLatch(1);
            a.schedule(200, TimeUnit.MILLISECONDS, aRuns::incrementAndGet);
            b.schedule(200, TimeUnit.MILLISECONDS, bRan::countDown);
            a.close();
            assertTrue(a.isShutdown());
            assertTrue(!b.isShutdown() && !pool.isShutdown(), "only a is shut down");
            assertTrue(bRan.await(2, TimeUnit.SECONDS), "b's timer runs on the shared workers");
            Thread.sleep(50);
            assertEquals(0, aRuns.get(), "a's timer, due after its close, does not run");
            assertThrows(IllegalStateException.class, () -> a.execute(() -> {}));
            CountDownLatch later = new CountDownLatch(1);
            b.execute(later::countDown);
            assertTrue(later.await(2, TimeUnit.SECONDS), "the workers still run b's tasks");
        } finally {
            pool.close();
        }
    }
}
