package org.groovecast.liquidsoap.prelude;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.groovecast.liquidsoap.eval.Halt;
import org.groovecast.liquidsoap.eval.Liq;
import org.junit.jupiter.api.Test;

/** error.on_error, thread.on_error, thread.run's on_error, and the try in an error's trace. */
class ErrorHandlersTest {
    /** Runs {@code code}'s threads until it stops; its exit code. */
    private static int run(String code) throws InterruptedException {
        Liq liq = new Liq();
        liq.eval(code);
        try {
            assertTrue(
                    liq.platform()
                            .runDue(
                                    System.nanoTime() + 5_000_000_000L,
                                    e -> {
                                        throw e;
                                    }),
                    "did not stop");
        } catch (Halt h) {
            return h.code();
        }
        return liq.platform().exitCode();
    }

    @Test
    void onErrorHearsEveryRaisedErrorCaughtOrNot() {
        assertEquals(
                "[\"foo:a\", \"bar:\"]",
                Liq.value(
                        """
                        seen = ref([])
                        error.on_error(fun (e) -> seen := [...seen(), "#{e.kind}:#{e.message}"])
                        try error.raise(error.register("foo"), "a") catch _ do () end
                        try error.raise(error.register("bar")) catch _ : [error.register("bar")] do () end
                        seen()
                        """));
        Registered.withTypes("error.on_error", "thread.on_error");
    }

    @Test
    void theLatestThreadHandlerForTheKindGetsTheErrorWithItsBacktrace() throws Exception {
        String handlers =
                """
                e = error.register("foo")
                thread.on_error(null, fun (~backtrace, err) -> exit(3))
                thread.on_error(e, fun (~backtrace, err) ->
                  if err.message == "async" and backtrace != "" then shutdown() else exit(4) end)
                """;
        assertEquals(0, run(handlers + "thread.run(fun () -> error.raise(e, \"async\"))"));
        assertEquals(
                3,
                run(
                        handlers
                                + "thread.run(fun () -> error.raise(error.register(\"bar\"), \"x\"))"));
    }

    @Test
    void aThreadsOwnOnErrorComesFirst() throws Exception {
        assertEquals(
                0,
                run(
                        """
                        thread.on_error(null, fun (~backtrace, err) -> exit(3))
                        thread.run(on_error=fun (err) -> if err.kind == "foo" then shutdown() else exit(5) end,
                                   fun () -> error.raise(error.register("foo")))
                        """));
    }

    @Test
    void theTryThatCaughtAnErrorIsInItsTrace() {
        assertEquals(
                "[\"at test.liq, line 3, char 2-16\", \"at test.liq, line 2 char 4 - line 6 char"
                        + " 15\"]",
                Liq.value(
                        """
                        e = error.register("foo")
                        t = try
                          error.raise(e)
                          []
                        catch err do
                          err.trace end
                        list.map(fun (p) -> p.to_string(), t)
                        """));
    }
}
