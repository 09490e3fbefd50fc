package org.groovecast.transitions;

import static org.groovecast.api.ValueType.FUNCTION;
import static org.groovecast.api.ValueType.NUMBER;
import static org.groovecast.api.ValueType.SOURCE;
import static org.groovecast.api.ValueType.STRING;

import java.util.List;
import org.groovecast.api.Arguments;
import org.groovecast.api.OperatorProvider;
import org.groovecast.api.OperatorSpec;
import org.groovecast.api.ScriptException;
import org.pf4j.Extension;

/** fade.in, fade.out and crossfade. */
@Extension
public final class TransitionOperators implements OperatorProvider {
    @Override
    public List<OperatorSpec> operators() {
        return List.of(
                OperatorSpec.named("fade.in")
                        .doc(
                                "Each track rises from silence over the first seconds; liq_fade_in and liq_fade_in_type override.")
                        .positional("source", SOURCE, "the source")
                        .named("duration", NUMBER, 3.0, "seconds of fade")
                        .named("type", STRING, "lin", "curve: lin, sin, log or exp")
                        .returns(SOURCE)
                        .create(
                                a ->
                                        new FadeIn(
                                                a.source("source"),
                                                seconds(a, "duration", "fade.in"),
                                                curve(a, "fade.in"))),
                OperatorSpec.named("fade.out")
                        .doc(
                                "Each track falls to silence over its last seconds (when its source says how much remains); "
                                        + "liq_fade_out and liq_fade_out_type override.")
                        .positional("source", SOURCE, "the source")
                        .named("duration", NUMBER, 3.0, "seconds of fade")
                        .named("type", STRING, "lin", "curve: lin, sin, log or exp")
                        .returns(SOURCE)
                        .create(
                                a ->
                                        new FadeOut(
                                                a.source("source"),
                                                seconds(a, "duration", "fade.out"),
                                                curve(a, "fade.out"))),
                OperatorSpec.named("cross")
                        .doc(
                                "Transitions built by the script: cross(s, duration: 5) { a, b -> add([fade.out(a.source), "
                                        + "fade.in(b.source)]) }; a and b carry source, metadata and db.")
                        .positional("source", SOURCE, "the source")
                        .named("duration", NUMBER, 5.0, "seconds of overlap")
                        .positional("transition", FUNCTION, "{ a, b -> source }")
                        .calls("the ending track", "the next track")
                        .returns(SOURCE)
                        .create(
                                a ->
                                        new Crossfade(
                                                "cross",
                                                a.source("source"),
                                                seconds(a, "duration", "cross"),
                                                new ScriptMix(a.function("transition")))),
                OperatorSpec.named("crossfade")
                        .doc(
                                "The end of each track overlaps the start of the next, each faded; "
                                        + "liq_cross_duration, liq_fade_in and liq_fade_out override per track.")
                        .positional("source", SOURCE, "the source")
                        .named("duration", NUMBER, 3.0, "seconds of overlap")
                        .named("fadeIn", NUMBER, 3.0, "seconds over which the new track rises")
                        .named("fadeOut", NUMBER, 3.0, "seconds over which the old track falls")
                        .named("type", STRING, "sin", "curve: lin, sin, log or exp")
                        .returns(SOURCE)
                        .create(
                                a ->
                                        new Crossfade(
                                                "crossfade",
                                                a.source("source"),
                                                seconds(a, "duration", "crossfade"),
                                                new FadeMix(
                                                        seconds(a, "fadeIn", "crossfade"),
                                                        seconds(a, "fadeOut", "crossfade"),
                                                        curve(a, "crossfade")))));
    }

    private static double seconds(Arguments a, String name, String op) {
        double d = a.number(name);
        if (!(d >= 0) || d > 30)
            throw new ScriptException(
                    op + "(): " + name + " must be between 0 and 30 seconds, got " + d);
        return d;
    }

    private static Curve curve(Arguments a, String op) {
        Curve c = Curve.named(a.string("type"));
        if (c == null)
            throw new ScriptException(
                    op + "(): type must be lin, sin, log or exp, got \"" + a.string("type") + "\"");
        return c;
    }
}
