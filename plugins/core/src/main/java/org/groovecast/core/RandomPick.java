package org.groovecast.core;

import java.util.List;
import java.util.SplittableRandom;
import org.groovecast.api.Source;
import org.groovecast.api.UserFunction;

/** Picks a ready input at random for each track, in proportion to its weight. */
final class RandomPick extends Selector {
    private final int[] weights;
    private final SplittableRandom random = new SplittableRandom();

    RandomPick(List<Source> choices, int[] weights, UserFunction onSelect, UserFunction onLeave) {
        super("random", choices, true, onSelect, onLeave);
        this.weights = weights;
    }

    @Override
    protected Source pick(Source current) {
        int total = 0;
        for (int i = 0; i < weights.length; i++) {
            if (choices.get(i).isReady()) total += weights[i];
        }
        if (total == 0) return null;
        int r = random.nextInt(total);
        for (int i = 0; i < weights.length; i++) {
            if (!choices.get(i).isReady()) continue;
            r -= weights[i];
            if (r < 0) return choices.get(i);
        }
        return null;
    }
}
