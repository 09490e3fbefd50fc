package org.groovecast.core;

import java.util.List;
import org.groovecast.api.Source;
import org.groovecast.api.UserFunction;

/** Plays the first ready input, in order of preference. */
final class Fallback extends Selector {
    Fallback(
            List<Source> choices,
            boolean trackSensitive,
            UserFunction onSelect,
            UserFunction onLeave,
            boolean replayMetadata,
            Transitions transitions) {
        super("fallback", choices, trackSensitive, onSelect, onLeave, replayMetadata, transitions);
    }

    @Override
    protected Source pick(Source current) {
        for (Source s : choices) {
            if (s.isReady()) return s;
        }
        return null;
    }
}
