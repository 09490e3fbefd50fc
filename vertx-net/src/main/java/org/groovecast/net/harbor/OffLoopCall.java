package org.groovecast.net.harbor;

import io.netty.channel.ChannelHandlerContext;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Work that may run the script's code (an {@code auth:} function, a {@code harbor.http.register}
 * handler, a control command), done on a virtual thread so that the event loop goes on serving
 * every other connection meanwhile; its result, or the lack of one by the deadline, comes back on
 * the connection's loop.
 */
final class OffLoopCall {
    /** How the call went. */
    enum Outcome {
        ANSWERED,
        TIMED_OUT,
        FAILED
    }

    /**
     * What came back: the value when {@link Outcome#ANSWERED}, what was thrown when {@link
     * Outcome#FAILED}.
     */
    record Result<T>(Outcome outcome, T value, Throwable error) {}

    /** Each call on a virtual thread of its own: a slow one holds nothing else up. */
    static final Executor VIRTUAL_THREADS =
            r -> Thread.ofVirtual().name("harbor callback").start(r);

    private OffLoopCall() {}

    /**
     * Runs {@code work} on {@code pool}, off the loop; {@code then} runs once on {@code loop} with
     * its result, or {@link Outcome#TIMED_OUT} if it has not answered within {@code timeoutNanos}.
     * Work that times out is let finish; what it answers then goes to {@code late} (on the loop;
     * null when a late answer holds nothing to release).
     */
    static <T> void call(
            EventExecutor loop,
            Executor pool,
            long timeoutNanos,
            Supplier<T> work,
            Consumer<Result<T>> then,
            Consumer<? super T> late) {
        AtomicBoolean answered = new AtomicBoolean();
        ScheduledFuture<?> deadline =
                loop.schedule(
                        () -> {
                            if (answered.compareAndSet(false, true))
                                then.accept(new Result<>(Outcome.TIMED_OUT, null, null));
                        },
                        timeoutNanos,
                        TimeUnit.NANOSECONDS);
        pool.execute(
                () -> {
                    Result<T> result;
                    try {
                        result = new Result<>(Outcome.ANSWERED, work.get(), null);
                    } catch (Throwable e) { // a script may throw anything, checked exceptions and
                        // assertion errors included
                        result = new Result<>(Outcome.FAILED, null, e);
                    }
                    Result<T> r = result;
                    try {
                        loop.execute(
                                () -> {
                                    if (answered.compareAndSet(false, true)) {
                                        deadline.cancel(false);
                                        then.accept(r);
                                    } else if (late != null && r.outcome() == Outcome.ANSWERED) {
                                        late.accept(r.value());
                                    }
                                });
                    } catch (RejectedExecutionException e) {
                        // The station stopped meanwhile and its loop with it: nobody waits for
                        // the answer, but what it holds is let go.
                        if (late != null && r.outcome() == Outcome.ANSWERED) late.accept(r.value());
                    }
                });
    }

    /**
     * {@link #call} for a connection whose reads may be paused meanwhile: they are resumed when the
     * answer comes (before {@code then}, which may pause them again for a reason of its own, a live
     * input's full pipe); a connection that {@code closed} meanwhile is forgotten, what the work
     * answered passed to {@code discard} (as is an answer past the deadline).
     */
    static <T> void forConnection(
            ChannelHandlerContext ctx,
            Executor pool,
            long timeoutNanos,
            Supplier<T> work,
            BooleanSupplier closed,
            Consumer<Result<T>> then,
            Consumer<? super T> discard) {
        call(
                ctx.executor(),
                pool,
                timeoutNanos,
                work,
                r -> {
                    if (!ctx.channel().config().isAutoRead())
                        ctx.channel().config().setAutoRead(true);
                    if (closed.getAsBoolean()) {
                        if (discard != null && r.outcome() == Outcome.ANSWERED)
                            discard.accept(r.value());
                        return;
                    }
                    then.accept(r);
                },
                discard);
    }
}
