package org.groovecast.net.harbor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.netty.util.concurrent.DefaultEventExecutor;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** What an off-loop call answers reaches someone, even when its loop has gone meanwhile. */
class OffLoopCallTest {
    @Test
    void anAnswerThatComesAfterTheLoopStoppedGoesToLateAndNothingIsThrown() throws Exception {
        DefaultEventExecutor loop = new DefaultEventExecutor();
        CountDownLatch stopped = new CountDownLatch(1);
        CompletableFuture<String> late = new CompletableFuture<>();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicReference<Object> then = new AtomicReference<>();
        OffLoopCall.call(
                loop,
                r -> Thread.ofPlatform().uncaughtExceptionHandler((t, e) -> thrown.set(e)).start(r),
                TimeUnit.SECONDS.toNanos(30),
                () -> {
                    try {
                        stopped.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return "a body to close";
                },
                then::set,
                late::complete);

        loop.shutdownGracefully(0, 0, TimeUnit.SECONDS).await();
        stopped.countDown();

        assertEquals("a body to close", late.get(5, TimeUnit.SECONDS));
        Thread.sleep(50);
        assertNull(thrown.get(), "the worker thread ended without an exception");
        assertNull(then.get(), "no answer on a loop that is gone");
    }
}
