package org.groovecast.core;

import static org.groovecast.api.ValueType.NUMBER;
import static org.groovecast.api.ValueType.SOURCE;

import java.util.List;
import org.groovecast.api.OperatorProvider;
import org.groovecast.api.OperatorSpec;
import org.groovecast.api.ScriptException;
import org.pf4j.Extension;

/** Operators that shape when and how long a source plays: delay, maxDuration, buffer. */
@Extension
public final class CompositionOperators implements OperatorProvider {
    @Override
    public List<OperatorSpec> operators() {
        return List.of(
                OperatorSpec.named("delay")
                        .doc(
                                "Makes a source unavailable for some seconds after each of its tracks: "
                                        + "fallback(delay(900, jingles), music) plays a jingle at most every 15 minutes.")
                        .positional("seconds", NUMBER, "how long the source rests after each track")
                        .positional("source", SOURCE, "the source")
                        .create(
                                a -> {
                                    double s = a.number("seconds");
                                    if (s < 0)
                                        throw new ScriptException(
                                                "delay(): seconds must be >= 0, got " + s);
                                    return new Delay(s, a.source("source"));
                                }),
                OperatorSpec.named("maxDuration")
                        .doc(
                                "Cuts each track of a source after some seconds and skips the rest of it.")
                        .positional("seconds", NUMBER, "the longest a track may play")
                        .positional("source", SOURCE, "the source")
                        .create(
                                a -> {
                                    double s = a.number("seconds");
                                    if (s <= 0)
                                        throw new ScriptException(
                                                "maxDuration(): seconds must be positive, got "
                                                        + s);
                                    return new MaxDuration(s, a.source("source"));
                                }),
                OperatorSpec.named("buffer")
                        .doc(
                                "Plays a source through a queue of samples, pulled every frame even when not played: "
                                        + "available once buffer: seconds are in, at most max: seconds kept (the oldest dropped).")
                        .positional("source", SOURCE, "the source, typically live")
                        .named(
                                "buffer",
                                NUMBER,
                                2.0,
                                "seconds queued before it plays, and again after it ran dry")
                        .named(
                                "max",
                                NUMBER,
                                10.0,
                                "seconds kept at most; the oldest samples make room")
                        .create(
                                a -> {
                                    double buffer = a.number("buffer");
                                    double max = a.number("max");
                                    if (buffer < 0 || max <= 0 || max < buffer) {
                                        throw new ScriptException(
                                                "buffer(): needs 0 <= buffer <= max and max > 0, got buffer: "
                                                        + buffer
                                                        + ", max: "
                                                        + max);
                                    }
                                    return new Buffer(a.source("source"), buffer, max);
                                }));
    }
}
