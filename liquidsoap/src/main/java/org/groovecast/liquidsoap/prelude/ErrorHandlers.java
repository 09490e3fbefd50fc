package org.groovecast.liquidsoap.prelude;

import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.groovecast.liquidsoap.eval.Builtin;
import org.groovecast.liquidsoap.eval.Call;
import org.groovecast.liquidsoap.eval.ErrorValue;
import org.groovecast.liquidsoap.eval.Fn;
import org.groovecast.liquidsoap.eval.LiqError;
import org.groovecast.liquidsoap.eval.Tuple;
import org.groovecast.liquidsoap.eval.Values;

/**
 * Who hears of a script's errors, as in Liquidsoap 2.4: {@code error.on_error} callbacks get every
 * error {@code error.raise} raises, caught or not (one may raise another instead); an error a
 * {@code thread.run} function lets out goes to its {@code on_error} when it has one, else to the
 * latest {@code thread.on_error} handler registered for its kind (or for all, with {@code null}),
 * which gets it with its backtrace; with none, it is reported as before.
 */
final class ErrorHandlers {
    private final List<Fn> raised = new CopyOnWriteArrayList<>();
    private final Deque<Handler> threads = new ConcurrentLinkedDeque<>();

    private record Handler(String kind, Fn fn) {}

    private ErrorHandlers() {}

    static void register(Library lib, Platform platform) {
        ErrorHandlers h = new ErrorHandlers();
        lib.function(
                "error.raise",
                "(error, ?string) -> 'a",
                "Raises an error of the kind given.",
                Map.of("", ""),
                a -> {
                    String kind = ((ErrorValue) Values.base(a.get(0))).kind();
                    String message = a.given(1) ? a.string(1) : "";
                    LiqError e =
                            new LiqError(new ErrorValue(kind, message, List.of()), a.at(), true);
                    h.raised(e.value());
                    throw e;
                });
        lib.function(
                "error.on_error",
                "((" + CommonTypes.ERROR + ") -> unit) -> unit",
                "Calls the function with every error raised, caught or not; it may raise another.",
                a -> {
                    h.raised.add(a.fn(0));
                    return Tuple.UNIT;
                });
        lib.function(
                "thread.on_error",
                "(error?, (backtrace : string, " + CommonTypes.ERROR + ") -> unit) -> unit",
                "Calls the function with the errors of this kind (all: null) a thread lets out;"
                        + " the latest registered for a kind is the one called.",
                a -> {
                    String kind = a.isNull(0) ? null : ((ErrorValue) Values.base(a.get(0))).kind();
                    h.threads.push(new Handler(kind, a.fn(1)));
                    return Tuple.UNIT;
                });
        lib.function(
                "thread.run",
                "(?fast : bool, ?delay : float, ?on_error : (("
                        + CommonTypes.ERROR
                        + ") -> unit)?, ?every :"
                        + " {float}?, () -> unit) -> unit",
                "Runs a function later (delay), again every so many seconds (every), off the clocks with fast=false.",
                Map.of("fast", true, "delay", 0.0),
                a -> {
                    double every =
                            a.isNull(3) ? 0 : ((Number) Values.base(a.getter(3))).doubleValue();
                    Fn f = h.guarded(a.fn(4), a.isNull(2) ? null : a.fn(2), Tuple.UNIT);
                    platform.runLater(a.number(1), Math.max(0, every), a.bool(0), f);
                    return Tuple.UNIT;
                });
        lib.function(
                "thread.run.recurrent",
                "(?fast : bool, ?delay : float, ?on_error : (("
                        + CommonTypes.ERROR
                        + ") -> float)?, () ->"
                        + " float) -> unit",
                "Runs a function later, then again after as many seconds as it answers (never when negative).",
                Map.of("fast", true, "delay", 0.0),
                a -> {
                    Fn f = h.guarded(a.fn(3), a.isNull(2) ? null : a.fn(2), -1.0);
                    Recurrent.start(platform, a.number(1), a.bool(0), f);
                    return Tuple.UNIT;
                });
    }

    private void raised(ErrorValue e) {
        Object value = CoreFunctions.withMethods(e);
        for (Fn f : raised) f.call(value);
    }

    /**
     * {@code f} as a thread runs it: an error it lets out goes to {@code onError} (whose answer is
     * the thread's), else to a {@code thread.on_error} handler (the thread's answer is then {@code
     * handled}), else out as before.
     */
    private Fn guarded(Fn f, Fn onError, Object handled) {
        return Builtin.of(
                "thread",
                List.of(),
                a -> {
                    try {
                        return f.call();
                    } catch (LiqError e) {
                        ErrorValue error = e.value();
                        if (onError != null) return onError.call(CoreFunctions.withMethods(error));
                        for (Handler handler : threads) {
                            if (handler.kind() == null || handler.kind().equals(error.kind())) {
                                handler.fn()
                                        .apply(
                                                Call.at(e.at())
                                                        .arg("backtrace", backtrace(e))
                                                        .arg(CoreFunctions.withMethods(error))
                                                        .build());
                                return handled;
                            }
                        }
                        throw e;
                    }
                });
    }

    /** The places the error went through, innermost first, one a line. */
    private static String backtrace(LiqError e) {
        return e.trace().stream().map(Object::toString).collect(Collectors.joining("\n"));
    }
}
