package com.example.widener;

import static org.groovecast.api.ValueType.NUMBER;
import static org.groovecast.api.ValueType.SOURCE;

import java.util.List;
import org.groovecast.api.OperatorProvider;
import org.groovecast.api.OperatorSpec;
import org.groovecast.api.ScriptException;
import org.pf4j.Extension;

/** The script names this plugin provides: {@code example.widen(s, width: 1.5)}. */
@Extension
public final class WidenerOperators implements OperatorProvider {
    @Override
    public List<OperatorSpec> operators() {
        return List.of(
                OperatorSpec.named("example.widen")
                        .doc(
                                "Widens or narrows the stereo image: width 0 is mono, 1 unchanged, 2 twice as wide.")
                        .positional("source", SOURCE, "the source")
                        .named("width", NUMBER, 1.5, "the side signal's gain")
                        .returns(SOURCE)
                        .create(
                                a -> {
                                    double width = a.number("width");
                                    // A bad argument is a ScriptException: the engine reports it
                                    // with the script's file and line.
                                    if (!(width >= 0 && width <= 4)) {
                                        throw new ScriptException(
                                                "example.widen(): width must be between 0 and 4, got "
                                                        + width);
                                    }
                                    return new Widener(a.source("source"), width);
                                }));
    }
}
