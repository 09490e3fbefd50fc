package org.groovecast.liquidsoap.prelude;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.groovecast.liquidsoap.eval.Liq;
import org.junit.jupiter.api.Test;

/** thread.pause, thread.delay and thread.when. */
class ThreadFunctionsTest {
    /** Runs {@code code}'s timers until it stops; its exit code. */
    private static int run(String code) throws InterruptedException {
        Liq liq = new Liq();
        liq.eval(code);
        assertTrue(
                liq.platform()
                        .runDue(
                                System.nanoTime() + 5_000_000_000L,
                                e -> {
                                    throw e;
                                }),
                "did not stop");
        return liq.platform().exitCode();
    }

    @Test
    void pauseAndDelaySleep() {
        long t0 = System.nanoTime();
        Liq.value("thread.pause(0.15)\nthread.delay(0.1)");
        assertTrue(System.nanoTime() - t0 >= 250_000_000L);
        Registered.withTypes("thread.pause", "thread.delay", "on_cleanup");
    }

    @Test
    void whenCallsOnEachRisingEdge() throws Exception {
        assertEquals(
                0,
                run(
                        """
                        n = ref(0)
                        x = ref(false)
                        thread.when(every=0.02, {x()}, fun () -> ref.incr(n))
                        thread.run(delay=0.1, fun () -> x := true)
                        thread.run(delay=0.5, fun () -> x := false)
                        thread.run(delay=0.9, fun () -> x := true)
                        thread.run(delay=1.3, fun () -> if n() == 2 then shutdown() else exit(10 + n()) end)
                        """));
    }

    @Test
    void whenUnchangedCallsAtEveryCheckAndOnceCallsOnce() throws Exception {
        assertEquals(
                0,
                run(
                        """
                        n = ref(0)
                        m = ref(0)
                        thread.when(changed=false, every=0.1, {true}, fun () -> ref.incr(n))
                        thread.when(once=true, every=0.02, {true}, fun () -> ref.incr(m))
                        thread.run(delay=0.45, fun () -> if n() >= 3 and m() == 1 then shutdown() else exit(10 * n() + m()) end)
                        """));
        Registered.withTypes("thread.when");
    }
}
