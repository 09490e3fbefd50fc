package org.groovecast.api;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Runs blocking work (a script function, a download) on a virtual thread of its own and waits for
 * it at most a given time. Work that overruns is abandoned: interrupted, and the caller goes on at
 * once, so a hung function holds no pool thread beyond the limit. Only the virtual thread waits on
 * it.
 */
public final class TimeLimit {
    private TimeLimit() {}

    /** Blocking work that may throw {@code E}. */
    @FunctionalInterface
    public interface Work<T, E extends Exception> {
        T run() throws E;
    }

    /**
     * {@link #call(String, double, Work, Consumer)} for work whose late result needs no cleaning
     * up.
     */
    public static <T, E extends Exception> T call(String name, double seconds, Work<T, E> work)
            throws E, TimeoutException {
        return call(name, seconds, work, late -> {});
    }

    /**
     * Runs {@code work} on a virtual thread named {@code name} and returns its result, or rethrows
     * what it threw, if it finishes within {@code seconds}.
     *
     * @param discard receives a result that arrives after the caller gave up (a downloaded file to
     *     delete)
     * @throws TimeoutException when {@code work} did not finish in time (or the caller was
     *     interrupted while waiting, its interrupt flag then set again); {@code work} is
     *     interrupted
     */
    public static <T, E extends Exception> T call(
            String name, double seconds, Work<T, E> work, Consumer<? super T> discard)
            throws E, TimeoutException {
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread worker =
                Thread.ofVirtual()
                        .name(name)
                        .start(
                                () -> {
                                    try {
                                        T value = work.run();
                                        // Whoever completes the future first wins: a result that
                                        // comes after the caller gave up is dropped.
                                        if (!result.complete(value) && value != null)
                                            discard.accept(value);
                                    } catch (Throwable t) {
                                        result.completeExceptionally(t);
                                    }
                                });
        try {
            return result.get(Math.max(0, (long) (seconds * 1e9)), TimeUnit.NANOSECONDS);
        } catch (TimeoutException | InterruptedException e) {
            if (e instanceof InterruptedException) Thread.currentThread().interrupt();
            if (result.cancel(true)) {
                worker.interrupt();
                throw new TimeoutException(name + " did not finish within " + seconds + " s");
            }
            return finished(result); // it finished while we gave up
        } catch (ExecutionException e) {
            return rethrow(e.getCause());
        }
    }

    private static <T, E extends Exception> T finished(CompletableFuture<T> result) throws E {
        try {
            return result.join();
        } catch (CompletionException e) {
            return rethrow(e.getCause());
        }
    }

    @SuppressWarnings("unchecked")
    private static <T, E extends Exception> T rethrow(Throwable t) throws E {
        if (t instanceof RuntimeException r) throw r;
        if (t instanceof Error err) throw err;
        throw (E) t;
    }
}
