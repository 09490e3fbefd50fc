package org.groovecast.core;

import static org.groovecast.api.ValueType.ANY;
import static org.groovecast.api.ValueType.BOOLEAN;
import static org.groovecast.api.ValueType.LIST;
import static org.groovecast.api.ValueType.SOURCE;
import static org.groovecast.api.ValueType.SOURCES;
import static org.groovecast.api.ValueType.STRING;

import java.util.List;
import org.groovecast.api.OperatorProvider;
import org.groovecast.api.OperatorSpec;
import org.groovecast.api.Source;
import org.pf4j.Extension;

/** Operators that change or combine the signal. */
@Extension
public final class SignalOperators implements OperatorProvider {
    @Override
    public List<OperatorSpec> operators() {
        return List.of(
                OperatorSpec.named("add")
                        .doc("Mixes sources together.")
                        .named("weights", LIST, List.of(), "relative weights, equal by default")
                        .named(
                                "normalize",
                                BOOLEAN,
                                true,
                                "divide by the total weight of the ready sources")
                        .positional("sources", SOURCES, "sources to mix")
                        .create(
                                a -> {
                                    List<Source> s = a.sources("sources");
                                    return new Add(s, Weights.of(a, s.size()), a.bool("normalize"));
                                }),
                OperatorSpec.named("amplify")
                        .doc(
                                "Multiplies the signal by a factor: a number, or a function or interactive variable "
                                        + "read again at every frame.")
                        .positional(
                                "factor",
                                ANY,
                                "the gain, 1.0 leaves it unchanged; { -> vol.value } follows a control")
                        .positional("source", SOURCE, "the source")
                        .named(
                                "override",
                                STRING,
                                null,
                                "metadata key of a per-track gain, e.g. 'liq_amplify' (0.5 or -6 dB)")
                        .create(
                                a ->
                                        new Amplify(
                                                Factor.of("amplify", "factor", a.value("factor")),
                                                a.source("source"),
                                                a.string("override"))),
                OperatorSpec.named("replaygain")
                        .doc(
                                "Applies each track's ReplayGain (replaygain_track_gain tag, e.g. -6.5 dB).")
                        .positional("source", SOURCE, "the source")
                        .returns(SOURCE)
                        .create(
                                a ->
                                        new Amplify(
                                                () -> 1.0,
                                                a.source("source"),
                                                "replaygain_track_gain")));
    }
}
