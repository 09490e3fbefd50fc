package org.groovecast.liquidsoap.prelude;

import org.groovecast.liquidsoap.eval.Errors;
import org.groovecast.liquidsoap.eval.Fn;
import org.groovecast.liquidsoap.eval.LiqError;
import org.groovecast.liquidsoap.eval.Tuple;

/**
 * What a script asks of the thread it runs on: {@code thread.pause(d)} and {@code thread.delay(d)}
 * put it to sleep (on a station, {@code thread.run} functions run on the blocking pool, so a pause
 * there holds no clock); {@code on_cleanup(f)} runs {@code f} when the script stops.
 */
final class ThreadFunctions {
    private ThreadFunctions() {}

    static void register(Library lib, Platform platform) {
        for (String name : new String[] {"thread.pause", "thread.delay"}) {
            lib.function(
                    name,
                    "(float) -> unit",
                    "Puts the calling thread to sleep for the given number of seconds.",
                    a -> {
                        sleep(a.number(0));
                        return Tuple.UNIT;
                    });
        }
        lib.function(
                "on_cleanup",
                "(() -> unit) -> unit",
                "Runs the function when the script stops (its station stops or a reload replaces it).",
                a -> {
                    Fn f = a.fn(0);
                    platform.atStop(
                            () -> {
                                try {
                                    f.call();
                                } catch (LiqError e) {
                                    platform.log(
                                            "on_cleanup", 2, "a cleanup failed: " + e.getMessage());
                                }
                            });
                    return Tuple.UNIT;
                });
    }

    private static void sleep(double seconds) {
        if (!(seconds > 0)) return;
        try {
            Thread.sleep((long) (seconds * 1000), (int) ((seconds * 1e9) % 1_000_000));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw Errors.invalid("interrupted while paused");
        }
    }
}
