package org.groovecast.core;

import static org.groovecast.api.ValueType.ANY;
import static org.groovecast.api.ValueType.BOOLEAN;
import static org.groovecast.api.ValueType.ENCODER;
import static org.groovecast.api.ValueType.FUNCTION;
import static org.groovecast.api.ValueType.OUTPUT;
import static org.groovecast.api.ValueType.SOURCE;

import java.util.List;
import org.groovecast.api.OperatorProvider;
import org.groovecast.api.OperatorSpec;
import org.pf4j.Extension;

/** Outputs that need no network. */
@Extension
public final class OutputOperators implements OperatorProvider {
    @Override
    public List<OperatorSpec> operators() {
        return List.of(
                OperatorSpec.named("output.dummy")
                        .doc("Drives a source in real time and discards it.")
                        .named(
                                "fallible",
                                BOOLEAN,
                                false,
                                "accept a source that may become unavailable")
                        .positional("source", SOURCE, "the source")
                        .returns(OUTPUT)
                        .create(a -> new DummyOutput(a.source("source"), a.bool("fallible"))),
                OperatorSpec.named("output.file")
                        .doc(
                                "Encodes a source into a file: output.file(mp3(), '/archive/%Y-%m-%d/%H-%M.mp3', s).")
                        .named(
                                "fallible",
                                BOOLEAN,
                                false,
                                "accept a source that may become unavailable")
                        .named(
                                "reopenOnMetadata",
                                BOOLEAN,
                                false,
                                "start a new file at each new metadata (one per track)")
                        .named(
                                "onClose",
                                FUNCTION,
                                null,
                                "called with the path of each finished file, on the blocking pool")
                        .calls("the finished file's path")
                        .positional("encoder", ENCODER, "the format, e.g. wav()")
                        .positional(
                                "path",
                                ANY,
                                "the file to write, or a function { -> path } asked at each file ('' for none now); "
                                        + "strftime fields (%Y %m %d %H %M %S) and %{field} of metadata are expanded")
                        .positional("source", SOURCE, "the source")
                        .returns(OUTPUT)
                        .create(
                                a ->
                                        new FileOutput(
                                                a.encoder("encoder"),
                                                a.value("path"),
                                                a.source("source"),
                                                a.bool("fallible"),
                                                a.bool("reopenOnMetadata"),
                                                a.function("onClose"))));
    }
}
