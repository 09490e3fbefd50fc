package org.groovecast.transitions;

import org.groovecast.api.Frame;
import org.groovecast.api.Metadata;
import org.groovecast.api.StreamContext;

/** How a crossfade combines the end of one track with the start of the next. */
interface Mix {
    /**
     * The two ends of a transition: the rest of the ending track ({@code tail}, from position 0)
     * and the start of the next ({@code head}); {@code headEnded} when the next track is shorter
     * than what was read of it (it is all there).
     */
    record Ends(
            Frame tail, Metadata oldMetadata, Frame head, Metadata newMetadata, boolean headEnded) {
        int tailLength() {
            return tail.position();
        }

        int headLength() {
            return head.position();
        }
    }

    /** Called once with the crossfade's input, before any transition. */
    default void prepare(org.groovecast.api.Source input) {}

    /**
     * Writes the transition into the empty {@code out} (samples and the new track's metadata, where
     * it becomes audible), advancing it by the transition's length.
     */
    void mix(Ends ends, Frame out, StreamContext context);
}
