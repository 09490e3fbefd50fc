package org.groovecast.host.request;

import java.io.IOException;
import java.util.List;
import org.groovecast.api.Metadata;

/** One request protocol: what {@code name:arg} resolves to. */
@FunctionalInterface
interface Protocol {
    /**
     * A URI a protocol answered, the metadata it adds, and whether the file it leads to is
     * temporary.
     */
    record Step(String uri, Metadata metadata, boolean temporary) {
        static Step of(String uri) {
            return new Step(uri, Metadata.EMPTY, false);
        }
    }

    /**
     * What {@code arg}, the URI after {@code name:}, resolves to: alternatives, first choice first.
     * May block (it runs on the resolving thread, a blocking pool worker) but must end within
     * {@code secondsLeft}.
     *
     * @throws IOException why it cannot be resolved; the message names the protocol
     */
    List<Step> resolve(String name, String arg, double secondsLeft) throws IOException;
}
