package org.groovecast.core;

import java.util.List;
import org.groovecast.api.Source;
import org.groovecast.api.UserFunction;

/** Plays {@code weights[i]} tracks of input i, then moves on to the next ready input. */
final class Rotate extends Selector {
    private final int[] weights;
    private int index = -1;
    private int played;

    Rotate(List<Source> choices, int[] weights, UserFunction onSelect, UserFunction onLeave) {
        super("rotate", choices, true, onSelect, onLeave);
        this.weights = weights;
    }

    @Override
    protected Source pick(Source current) {
        if (index >= 0 && played < weights[index] && choices.get(index).isReady())
            return choices.get(index);
        int n = choices.size();
        for (int step = 1; step <= n; step++) {
            int i = Math.floorMod(index + step, n);
            if (weights[i] > 0 && choices.get(i).isReady()) return choices.get(i);
        }
        return null;
    }

    @Override
    protected void trackEnded(Source source) {
        int i = choices.indexOf(source);
        if (i != index) {
            index = i;
            played = 0;
        }
        played++;
    }
}
