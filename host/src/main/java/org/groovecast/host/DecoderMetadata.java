package org.groovecast.host;

import static org.groovecast.api.ValueType.FUNCTION;
import static org.groovecast.api.ValueType.NONE;
import static org.groovecast.api.ValueType.STRING;

import org.groovecast.api.OperatorSpec;
import org.groovecast.api.ScriptException;
import org.groovecast.api.UserFunction;
import org.groovecast.host.script.ClosureFunction;

/**
 * {@code decoder.metadata.add(name) { file, metadata -> [key: value] }}: metadata a script computes
 * for each file the request sources are about to play (an autocue of its own, a tag from a
 * database), as Liquidsoap's {@code decoder.metadata.add}.
 */
final class DecoderMetadata {
    private DecoderMetadata() {}

    static OperatorSpec spec(Station station) {
        return OperatorSpec.named("decoder.metadata.add")
                .doc(
                        "Adds a file metadata resolver: as a request source is about to play a file, the function "
                                + "gets its path and metadata so far and answers a map of metadata to add (on the "
                                + "blocking pool; null or a failure adds nothing).")
                .positional("name", STRING, "what the resolver is called, for the log")
                .positional("resolver", FUNCTION, "{ file, metadata -> [key: value] }")
                .calls("the file's path", "its metadata so far")
                .returns(NONE)
                .create(
                        a -> {
                            UserFunction f = a.function("resolver");
                            if (ClosureFunction.parameters(f, 2) != 2) {
                                throw new ScriptException(
                                        "decoder.metadata.add(): the resolver takes (file, metadata)");
                            }
                            station.protocols().addMetadataResolver(a.string("name"), f);
                            return null;
                        });
    }
}
