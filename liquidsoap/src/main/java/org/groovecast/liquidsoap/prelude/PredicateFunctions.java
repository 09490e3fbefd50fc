package org.groovecast.liquidsoap.prelude;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.groovecast.liquidsoap.eval.Builtin;
import org.groovecast.liquidsoap.eval.Fn;
import org.groovecast.liquidsoap.eval.Rec;
import org.groovecast.liquidsoap.eval.Tuple;
import org.groovecast.liquidsoap.eval.Values;

/**
 * The {@code predicate} module: predicates made from others ({@code () -> bool} functions a switch
 * or a {@code thread.when} asks again and again), each keeping what it needs of the calls before.
 */
final class PredicateFunctions {
    private PredicateFunctions() {}

    private static boolean ask(Fn p) {
        return Values.base(p.call()) instanceof Boolean b && b;
    }

    private static Builtin predicate(String name, java.util.function.BooleanSupplier body) {
        return Builtin.of(name, List.of(), a -> body.getAsBoolean());
    }

    static void register(Library lib) {
        lib.function(
                "predicate.activates",
                "(?init : bool, () -> bool) -> () -> bool",
                "True when the predicate becomes true (with init, also when it is true at the first call).",
                Map.of("init", false),
                a -> {
                    Fn p = a.fn(1);
                    AtomicBoolean was = new AtomicBoolean(!a.bool(0));
                    return predicate(
                            "predicate.activates",
                            () -> {
                                boolean now = ask(p);
                                return !was.getAndSet(now) && now;
                            });
                });
        lib.function(
                "predicate.once",
                "(() -> bool) -> () -> bool",
                "True once each time the predicate turns true (also at the first call).",
                a -> {
                    Fn p = a.fn(0);
                    AtomicBoolean was = new AtomicBoolean(false);
                    return predicate(
                            "predicate.once",
                            () -> {
                                boolean now = ask(p);
                                return !was.getAndSet(now) && now;
                            });
                });
        lib.function(
                "predicate.at_most",
                "(int, () -> bool) -> () -> bool",
                "True while the predicate is, at most n times in a row.",
                a -> {
                    long n = a.integer(0);
                    Fn p = a.fn(1);
                    AtomicLong row = new AtomicLong();
                    return predicate(
                            "predicate.at_most",
                            () -> {
                                if (!ask(p)) {
                                    row.set(0);
                                    return false;
                                }
                                return row.incrementAndGet() <= n;
                            });
                });
        lib.function(
                "predicate.changes",
                "(() -> 'a) -> () -> bool where 'a is an orderable type",
                "True when the function's value differs from the last call's.",
                a -> {
                    Fn p = a.fn(0);
                    AtomicReference<Object> last = new AtomicReference<>(p.call());
                    return predicate(
                            "predicate.changes",
                            () -> {
                                Object now = p.call();
                                return !org.groovecast.liquidsoap.eval.Values.equal(
                                        last.getAndSet(now), now);
                            });
                });
        lib.function(
                "predicate.first",
                "(() -> bool) -> () -> bool",
                "True the first time the predicate is, then never.",
                a -> {
                    Fn p = a.fn(0);
                    AtomicBoolean done = new AtomicBoolean();
                    return predicate(
                            "predicate.first",
                            () -> !done.get() && ask(p) && !done.getAndSet(true));
                });
        lib.function(
                "predicate.signal",
                "() -> (() -> bool).{signal : () -> unit}",
                "True once after each p.signal().",
                a -> {
                    AtomicBoolean raised = new AtomicBoolean();
                    Builtin p = predicate("predicate.signal", () -> raised.getAndSet(false));
                    return Rec.with(
                            p,
                            "signal",
                            Builtin.of(
                                    "signal",
                                    List.of(),
                                    x -> {
                                        raised.set(true);
                                        return Tuple.UNIT;
                                    }));
                });
    }
}
