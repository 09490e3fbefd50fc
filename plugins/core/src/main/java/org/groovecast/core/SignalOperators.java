package org.groovecast.core;

import static org.groovecast.api.ValueType.BOOLEAN;
import static org.groovecast.api.ValueType.LIST;
import static org.groovecast.api.ValueType.NUMBER;
import static org.groovecast.api.ValueType.SOURCE;
import static org.groovecast.api.ValueType.SOURCES;

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
                        .named("normalize", BOOLEAN, true, "divide by the total weight of the ready sources")
                        .positional("sources", SOURCES, "sources to mix")
                        .create(a -> {
                            List<Source> s = a.sources("sources");
                            return new Add(s, Weights.of(a, s.size()), a.bool("normalize"));
                        }),
                OperatorSpec.named("amplify")
                        .doc("Multiplies the signal by a factor.")
                        .positional("factor", NUMBER, "the gain, 1.0 leaves it unchanged")
                        .positional("source", SOURCE, "the source")
                        .create(a -> new Amplify(a.number("factor"), a.source("source"))));
    }
}
