package org.groovecast.liquidsoap.engine;

import java.util.List;
import java.util.Map;
import org.groovecast.liquidsoap.eval.Args;
import org.groovecast.liquidsoap.eval.Call;
import org.groovecast.liquidsoap.eval.Fn;
import org.groovecast.liquidsoap.eval.Tuple;
import org.groovecast.liquidsoap.eval.Values;
import org.groovecast.liquidsoap.prelude.Library;

/**
 * Liquidsoap's library functions that are compositions of operators the engine has: {@code
 * source.available(s, p)} is a one-case {@code switch}, {@code cross.simple(a, b)} is Liquidsoap's
 * own sum of a sine fade out and a sine fade in. Each is registered only where its operators are.
 */
final class DerivedOperators {
    private DerivedOperators() {}

    private static final String METADATA = "[(string * string)]";

    static void register(Library lib) {
        Fn switchOp = operator(lib, "switch");
        if (switchOp != null) {
            lib.function(
                    "source.available",
                    "(?id : string?, ?track_sensitive : {bool}, ?override : bool, source('a),"
                            + " {bool}) -> source('a)",
                    "The source, available only while the predicate holds (a switch of one case;"
                            + " override is left out: the source must be ready too).",
                    Map.of("track_sensitive", false, "override", false),
                    a -> available(switchOp, a));
        }
        Fn add = operator(lib, "add");
        Fn fadeIn = operator(lib, "fade.in");
        Fn fadeOut = operator(lib, "fade.out");
        if (add != null && fadeIn != null && fadeOut != null) {
            lib.function(
                    "cross.simple",
                    "(?log : (string) -> unit, ?fade_in : float, ?fade_out : float,"
                            + " ?initial_fade_in_metadata : "
                            + METADATA
                            + ", ?initial_fade_out_metadata : "
                            + METADATA
                            + ", ?ending_map : (source('a)) -> source('a), ?starting_map :"
                            + " (source('a)) -> source('a), source('a), source('a)) -> source('a)",
                    "A cross transition: the ending source faded out and the starting one faded"
                            + " in (sine curves) over each other, as cross's transition function.",
                    Map.of(
                            "fade_in",
                            3.0,
                            "fade_out",
                            3.0,
                            "initial_fade_in_metadata",
                            List.of(),
                            "initial_fade_out_metadata",
                            List.of()),
                    a -> simpleCross(add, fadeIn, fadeOut, a));
        }
    }

    private static Fn operator(Library lib, String name) {
        Library.Entry e = lib.entry(name);
        return e != null && Values.base(e.value()) instanceof Fn f ? f : null;
    }

    private static Object available(Fn switchOp, Args a) {
        Call.Builder call = Call.at(a.at());
        if (a.given(0) && !a.isNull(0)) call.arg("id", a.get(0));
        Object sensitive = a.getter(1);
        return switchOp.apply(
                call.arg("track_sensitive", Boolean.TRUE.equals(Values.base(sensitive)))
                        .arg(List.of(Tuple.of(a.get(4), a.get(3))))
                        .build());
    }

    private static Object simpleCross(Fn add, Fn fadeIn, Fn fadeOut, Args a) {
        Object ending =
                fadeOut.apply(
                        Call.at(a.at())
                                .arg("type", "sin")
                                .arg("duration", a.number(2))
                                .arg(a.get(7))
                                .build());
        Object starting =
                fadeIn.apply(
                        Call.at(a.at())
                                .arg("type", "sin")
                                .arg("duration", a.number(1))
                                .arg(a.get(8))
                                .build());
        if (a.given(5) && !a.isNull(5)) ending = a.fn(5).call(ending);
        if (a.given(6) && !a.isNull(6)) starting = a.fn(6).call(starting);
        return add.apply(
                Call.at(a.at()).arg("normalize", false).arg(List.of(starting, ending)).build());
    }
}
