package org.groovecast.core;

import static org.groovecast.api.ValueType.NUMBER;
import static org.groovecast.api.ValueType.SOURCE;

import java.util.List;
import org.groovecast.api.OperatorProvider;
import org.groovecast.api.OperatorSpec;
import org.groovecast.api.ScriptException;
import org.pf4j.Extension;

/** Sources that make sound from nothing, and cutting them into tracks. */
@Extension
public final class GeneratorOperators implements OperatorProvider {
    @Override
    public List<OperatorSpec> operators() {
        return List.of(
                OperatorSpec.named("sine")
                        .doc("An endless sine tone.")
                        .positional("freq", NUMBER, 440.0, "frequency in Hz")
                        .named("amplitude", NUMBER, 1.0, "peak level, 0..1")
                        .create(a -> new Sine(a.number("freq"), a.number("amplitude"))),
                OperatorSpec.named("blank")
                        .doc("Silence, endless or in tracks of the given duration.")
                        .named(
                                "duration",
                                NUMBER,
                                0.0,
                                "track length in seconds; 0 for one endless track")
                        .create(a -> new Blank(a.number("duration"))),
                OperatorSpec.named("noise")
                        .doc("Endless white noise.")
                        .named("amplitude", NUMBER, 1.0, "peak level, 0..1")
                        .create(a -> new Noise(a.number("amplitude"))),
                OperatorSpec.named("tracks")
                        .doc(
                                "Cuts a source into tracks of fixed length: sine(440).tracks(duration: 2).")
                        .positional("source", SOURCE, "the source to cut")
                        .requiredNamed("duration", NUMBER, "track length in seconds")
                        .create(
                                a -> {
                                    double d = a.number("duration");
                                    if (d <= 0)
                                        throw new ScriptException(
                                                "tracks(): duration must be positive, got " + d);
                                    return new Tracks(a.source("source"), d);
                                }));
    }
}
