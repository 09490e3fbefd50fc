package org.groovecast.host.sched;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where blocking work goes (probing and decoding files, resolving requests): at most {@code
 * settings.scheduler.blockingTasks} run at once, the rest wait in order. It shares no thread with
 * the {@link TaskScheduler}, so neither kind of work can starve the other.
 */
public final class BlockingPool implements Executor, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(BlockingPool.class);

    private final ThreadPoolExecutor executor;
    private final int cap;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger maxInFlight = new AtomicInteger();

    /** The nice value of blocking workers: below clocks, so a busy pool never delays a tick. */
    public static final int NICE = 10;

    /** False for a pool on another's threads ({@link #share}): closing it leaves them. */
    private final boolean ownsThreads;

    private BlockingPool(ThreadPoolExecutor executor, int cap) {
        this.executor = executor;
        this.cap = cap;
        this.ownsThreads = false;
    }

    /**
     * A pool on this one's threads, cap and queue, counting what runs through it in its own
     * figures; closing it leaves the threads to this one (the stations of one process share them
     * so).
     */
    public BlockingPool share() {
        return new BlockingPool(executor, cap);
    }

    public BlockingPool(int cap) {
        if (cap < 1) throw new IllegalArgumentException("blockingTasks must be >= 1, got " + cap);
        this.cap = cap;
        this.ownsThreads = true;
        AtomicInteger serial = new AtomicInteger();
        this.executor =
                new ThreadPoolExecutor(
                        cap,
                        cap,
                        30,
                        TimeUnit.SECONDS,
                        new LinkedBlockingQueue<>(),
                        r ->
                                Thread.ofPlatform()
                                        .name("gc-blocking-" + serial.incrementAndGet())
                                        .daemon(true)
                                        .unstarted(
                                                () -> {
                                                    ThreadNice.set(NICE);
                                                    r.run();
                                                }));
        executor.allowCoreThreadTimeOut(true);
    }

    /** The default cap: one per core, at least 4. */
    public static int defaultCap() {
        return Math.max(4, Runtime.getRuntime().availableProcessors());
    }

    @Override
    public void execute(Runnable task) {
        executor.execute(
                () -> {
                    int now = inFlight.incrementAndGet();
                    maxInFlight.accumulateAndGet(now, Math::max);
                    try {
                        task.run();
                    } catch (Throwable t) {
                        log.error("blocking task {} failed", task, t);
                    } finally {
                        inFlight.decrementAndGet();
                    }
                });
    }

    public int cap() {
        return cap;
    }

    /** Tasks running right now. */
    public int inFlight() {
        return inFlight.get();
    }

    /** The most tasks ever seen running at once. */
    public int maxInFlight() {
        return maxInFlight.get();
    }

    /** Tasks waiting for a free slot. */
    public int queued() {
        return executor.getQueue().size();
    }

    /**
     * Takes no new tasks and lets the queued ones finish (a file's onClose handler, say), for up to
     * 10 s; what still runs then is interrupted.
     */
    @Override
    public void close() {
        if (!ownsThreads) return;
        executor.shutdown();
        try {
            if (!executor.awaitTermination(10, TimeUnit.SECONDS)) executor.shutdownNow();
        } catch (InterruptedException e) {
            executor.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
