package org.groovecast.net.harbor;

import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * A yes-or-no question that may run the script's code (an {@code auth:} function), asked on a
 * virtual thread so that the event loop goes on serving every other connection meanwhile; the
 * answer, or the lack of one by the deadline, comes back on the connection's loop.
 */
final class OffLoopCheck {
    /** How the question went. */
    enum Verdict { YES, NO, TIMED_OUT, FAILED }

    /** Each check on a virtual thread of its own: a slow one holds nothing else up. */
    static final Executor VIRTUAL_THREADS = r -> Thread.ofVirtual().name("harbor auth").start(r);

    private OffLoopCheck() {
    }

    /**
     * Runs {@code check} on {@code checks}, off the loop; {@code then} runs once on {@code loop} with its verdict,
     * {@link Verdict#TIMED_OUT} if it has not answered within {@code timeoutNanos} (it is then let
     * finish, and its answer ignored), or {@link Verdict#FAILED} with the exception it threw.
     */
    static void ask(EventExecutor loop, Executor checks, long timeoutNanos, BooleanSupplier check,
                    Consumer<Verdict> then, Consumer<RuntimeException> failed) {
        AtomicBoolean answered = new AtomicBoolean();
        ScheduledFuture<?> deadline = loop.schedule(() -> {
            if (answered.compareAndSet(false, true)) then.accept(Verdict.TIMED_OUT);
        }, timeoutNanos, TimeUnit.NANOSECONDS);
        checks.execute(() -> {
            Verdict v;
            RuntimeException error = null;
            try {
                v = check.getAsBoolean() ? Verdict.YES : Verdict.NO;
            } catch (RuntimeException e) {
                v = Verdict.FAILED;
                error = e;
            }
            Verdict verdict = v;
            RuntimeException thrown = error;
            loop.execute(() -> {
                if (!answered.compareAndSet(false, true)) return;
                deadline.cancel(false);
                if (thrown != null) failed.accept(thrown);
                then.accept(verdict);
            });
        });
    }
}
