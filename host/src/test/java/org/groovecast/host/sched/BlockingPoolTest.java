package org.groovecast.host.sched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class BlockingPoolTest {
    @Test
    void neverRunsMoreThanItsCap() throws Exception {
        try (BlockingPool pool = new BlockingPool(3)) {
            AtomicInteger running = new AtomicInteger();
            AtomicInteger peak = new AtomicInteger();
            CountDownLatch done = new CountDownLatch(40);
            for (int i = 0; i < 40; i++) {
                pool.execute(
                        () -> {
                            peak.accumulateAndGet(running.incrementAndGet(), Math::max);
                            TaskSchedulerTest.sleep(10);
                            running.decrementAndGet();
                            done.countDown();
                        });
            }
            assertTrue(done.await(5, TimeUnit.SECONDS));
            assertEquals(3, peak.get(), "peak concurrency");
            assertEquals(3, pool.maxInFlight());
        }
    }

    @Test
    void aFailingTaskDoesNotKillThePool() throws Exception {
        try (BlockingPool pool = new BlockingPool(1)) {
            pool.execute(
                    () -> {
                        throw new IllegalStateException("boom (expected by the test)");
                    });
            CountDownLatch after = new CountDownLatch(1);
            pool.execute(after::countDown);
            assertTrue(after.await(1, TimeUnit.SECONDS));
        }
    }

    @Test
    void defaultCapIsOnePerCoreAndAtLeastFour() {
        assertEquals(
                Math.max(4, Runtime.getRuntime().availableProcessors()), BlockingPool.defaultCap());
    }
}
