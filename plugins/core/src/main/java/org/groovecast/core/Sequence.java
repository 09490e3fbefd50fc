package org.groovecast.core;

import java.util.List;
import org.groovecast.api.Source;

/** Plays one track of each input in turn, then stays on the last one. */
final class Sequence extends Selector {
    private int index;

    Sequence(List<Source> choices) {
        super("sequence", choices, true, null, null);
    }

    @Override
    protected Source pick(Source current) {
        while (index < choices.size() - 1 && !choices.get(index).isReady()) index++;
        Source s = choices.get(index);
        return s.isReady() ? s : null;
    }

    @Override
    protected void trackEnded(Source source) {
        if (index < choices.size() - 1) index++;
    }
}
