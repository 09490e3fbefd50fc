package org.groovecast.host.sched;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's small pool for non-blocking work: immediate tasks and timers, run in batches by a
 * few threads (one per core by default).
 *
 * <p>A timer is a heap entry, not a sleeping thread: one worker at a time (the leader) waits for
 * the earliest deadline, the others wait for work. When the leader wakes it takes every timer due
 * within the slack, so clocks whose deadlines are close share one wake-up; that is how 200 clocks
 * cost far fewer than 200 × 50 context switches a second. Due timers join the back of the immediate
 * queue, and a worker takes at most one batch at a time, so neither a flood of immediate tasks nor
 * a crowd of timers can starve the other.
 */
public final class TaskScheduler implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(TaskScheduler.class);

    /** How long {@link #close} waits for the workers, all together. */
    private static final long CLOSE_WAIT_NANOS = TimeUnit.SECONDS.toNanos(5);

    /** The scheduler whose worker the current thread is, if any. */
    private static final ThreadLocal<TaskScheduler> CURRENT = new ThreadLocal<>();

    private final ReentrantLock lock = new ReentrantLock();

    /** The leader's condition: a timed wait for the earliest timer. */
    private final Condition leaderWake = lock.newCondition();

    /** Followers wait here for immediate work or to become leader. */
    private final Condition followerWake = lock.newCondition();

    private final ArrayDeque<Runnable> ready = new ArrayDeque<>();
    private final PriorityQueue<Timer> timers = new PriorityQueue<>();
    private final Thread[] workers;
    private final long slackNanos;
    private final int batchSize;
    private boolean leaderWaiting;
    private int followersWaiting;
    private long timerSeq;
    private boolean shutdown;
    private long wakeups;
    private final LongAdder busyNanos = new LongAdder();

    /** When a worker last took a batch to run ({@link System#nanoTime()}). */
    private volatile long lastRunNanos = System.nanoTime();

    /**
     * The scheduler whose workers this one uses ({@link #share}), or null when it has its own: a
     * station of a process running many shares the process's workers, and its stop must end its own
     * work only.
     */
    private final TaskScheduler shared;

    /** A sharing scheduler's own shut-down (the workers' is {@link #shutdown}). */
    private volatile boolean released;

    /**
     * @param threads worker threads
     * @param slack how early a timer may run so that close deadlines share one wake-up
     * @param batchSize tasks a worker takes per turn
     */
    public TaskScheduler(int threads, Duration slack, int batchSize) {
        if (threads < 1) throw new IllegalArgumentException("threads must be >= 1");
        this.slackNanos = slack.toNanos();
        this.batchSize = batchSize;
        this.workers = new Thread[threads];
        this.shared = null;
        for (int i = 0; i < threads; i++) {
            workers[i] =
                    Thread.ofPlatform().name("gc-sched-" + i).daemon(true).unstarted(this::work);
            workers[i].start();
        }
    }

    private TaskScheduler(TaskScheduler shared) {
        this.shared = shared;
        this.slackNanos = shared.slackNanos;
        this.batchSize = shared.batchSize;
        this.workers = shared.workers;
    }

    /**
     * A scheduler on this one's workers: its tasks and timers run here, and closing it ends only
     * them (its timers due later do not run; what it queued runs), not the workers.
     */
    public TaskScheduler share() {
        return new TaskScheduler(shared != null ? shared : this);
    }

    /**
     * A timer entry; {@link #cancel()} keeps it from running. A clock re-arms the same entry every
     * frame with {@link #arm}, so parking allocates nothing.
     */
    public static final class Timer implements Comparable<Timer> {
        private final Runnable task;
        private long deadline;
        private long seq;
        private boolean queued;
        private volatile boolean cancelled;

        private Timer(Runnable task) {
            this.task = task;
        }

        public void cancel() {
            cancelled = true;
        }

        public long deadline() {
            return deadline;
        }

        @Override
        public int compareTo(Timer o) {
            int c = Long.compare(deadline, o.deadline);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }
    }

    /**
     * Whether this thread is a worker of some scheduler (where clocks tick and fast thread.run
     * functions run).
     */
    public static boolean onSchedulerThread() {
        return CURRENT.get() != null;
    }

    /** Runs {@code task} soon, after the tasks already queued. */
    public void execute(Runnable task) {
        if (shared != null) {
            if (released) throw new IllegalStateException("scheduler is shut down");
            shared.execute(task);
            return;
        }
        lock.lock();
        try {
            if (shutdown) throw new IllegalStateException("scheduler is shut down");
            ready.addLast(task);
            if (followersWaiting > 0) followerWake.signal();
            else if (leaderWaiting) leaderWake.signal();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Runs {@code task} at {@link System#nanoTime()} {@code deadline} (up to the slack earlier).
     */
    public Timer scheduleAt(long deadline, Runnable task) {
        Timer t = timer(task);
        arm(t, deadline);
        return t;
    }

    /** A timer for {@code task}, not yet armed. */
    public Timer timer(Runnable task) {
        if (shared != null)
            return new Timer(
                    () -> {
                        if (!released) task.run();
                    });
        return new Timer(task);
    }

    /** (Re)arms {@code t} for {@code deadline}; it must not be pending already. */
    public void arm(Timer t, long deadline) {
        if (shared != null) {
            if (released) throw new IllegalStateException("scheduler is shut down");
            shared.arm(t, deadline);
            return;
        }
        lock.lock();
        try {
            if (shutdown) throw new IllegalStateException("scheduler is shut down");
            if (t.queued) throw new IllegalStateException("timer already pending");
            t.deadline = deadline;
            t.seq = timerSeq++;
            t.cancelled = false;
            t.queued = true;
            Timer head = timers.peek();
            timers.add(t);
            if (head == null || t.deadline < head.deadline) {
                // The leader sleeps for a later deadline, or nobody leads yet. A worker arming a
                // timer (a clock parking after its tick) will lead itself once its batch is done:
                // waking a follower for that would cost a context switch per tick for nothing.
                if (leaderWaiting) leaderWake.signal();
                else if (followersWaiting > 0 && CURRENT.get() != this) followerWake.signal();
            }
        } finally {
            lock.unlock();
        }
    }

    public Timer schedule(long delay, TimeUnit unit, Runnable task) {
        return scheduleAt(System.nanoTime() + unit.toNanos(delay), task);
    }

    /** Times a worker woke from waiting; for the clock benchmark. */
    public long wakeups() {
        if (shared != null) return shared.wakeups();
        lock.lock();
        try {
            return wakeups;
        } finally {
            lock.unlock();
        }
    }

    public int threads() {
        return workers.length;
    }

    private void work() {
        CURRENT.set(this);
        List<Runnable> batch = new ArrayList<>(batchSize);
        while (true) {
            if (!takeBatch(batch)) return;
            long start = System.nanoTime();
            lastRunNanos = start;
            for (int i = 0; i < batch.size(); i++) {
                Runnable task = batch.get(i);
                try {
                    task.run();
                } catch (Throwable t) {
                    log.error("task {} failed", task, t);
                }
            }
            batch.clear();
            busyNanos.add(System.nanoTime() - start);
        }
    }

    /**
     * Nanoseconds the workers spent running tasks, summed over workers. Divided by elapsed time and
     * {@link #threads()} it is the scheduler's load: the figure that shows overload when every
     * clock's own duty looks small because each waits for a free thread rather than works.
     */
    public long busyNanos() {
        if (shared != null) return shared.busyNanos();
        return busyNanos.sum();
    }

    /**
     * When a worker last started running tasks ({@link System#nanoTime()}; the scheduler's creation
     * until one did). A station's status sampler runs here every second, so a time far behind means
     * every worker is stuck in a task that does not return: {@code /healthz} reads it.
     */
    public long lastRunNanos() {
        return shared != null ? shared.lastRunNanos() : lastRunNanos;
    }

    /** Fills {@code batch}; false once shut down and drained. */
    private boolean takeBatch(List<Runnable> batch) {
        lock.lock();
        try {
            while (true) {
                long now = System.nanoTime();
                moveDueTimers(now + slackNanos);
                if (!ready.isEmpty()) {
                    for (int i = 0; i < batchSize && !ready.isEmpty(); i++)
                        batch.add(ready.pollFirst());
                    // Hand work or the timers to an idle worker, but not for a single short task:
                    // every hand-off is one more context switch, and the clocks pay for those.
                    boolean leaderless = !leaderWaiting && !timers.isEmpty() && batch.size() > 1;
                    if (followersWaiting > 0 && (!ready.isEmpty() || leaderless))
                        followerWake.signal();
                    return true;
                }
                if (shutdown) return false;
                if (!leaderWaiting && !timers.isEmpty()) {
                    leaderWaiting = true;
                    try {
                        leaderWake.awaitNanos(timers.peek().deadline - now);
                    } finally {
                        leaderWaiting = false;
                    }
                } else {
                    followersWaiting++;
                    try {
                        followerWake.await();
                    } finally {
                        followersWaiting--;
                    }
                }
                wakeups++;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            lock.unlock();
        }
    }

    private void moveDueTimers(long horizon) {
        Timer t;
        while ((t = timers.peek()) != null && t.deadline <= horizon) {
            timers.poll();
            t.queued = false;
            if (!t.cancelled) ready.addLast(t.task);
        }
    }

    /**
     * Stops taking new work, lets queued immediate tasks finish, drops pending timers and waits for
     * the workers to end.
     */
    @Override
    public void close() {
        if (shared != null) {
            released = true;
            return;
        }
        lock.lock();
        try {
            shutdown = true;
            timers.clear();
            leaderWake.signalAll();
            followerWake.signalAll();
        } finally {
            lock.unlock();
        }
        // One deadline for all: a worker stuck in a task that never returns (a script callback
        // looping on a clock) is waited for once, not once per worker, and then left behind (the
        // workers are daemons).
        long deadline = System.nanoTime() + CLOSE_WAIT_NANOS;
        for (Thread w : workers) {
            if (w == Thread.currentThread()) continue;
            try {
                long left = deadline - System.nanoTime();
                if (left > 0) w.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                if (w.isAlive())
                    log.warn("{} is still busy with a task; closing without it", w.getName());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    public boolean isShutdown() {
        if (shared != null) return released || shared.isShutdown();
        lock.lock();
        try {
            return shutdown;
        } finally {
            lock.unlock();
        }
    }
}
