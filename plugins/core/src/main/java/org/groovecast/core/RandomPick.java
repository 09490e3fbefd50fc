package org.groovecast.core;

import java.util.List;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;
import org.groovecast.api.Source;
import org.groovecast.api.StreamContext;
import org.groovecast.api.UserFunction;

/** Picks a ready input at random for each track, in proportion to its weight. */
final class RandomPick extends Selector {
    private final int[] weights;
    private RandomGenerator random = new SplittableRandom();

    RandomPick(List<Source> choices, int[] weights, UserFunction onSelect, UserFunction onLeave) {
        super("random", choices, true, onSelect, onLeave);
        this.weights = weights;
    }

    @Override
    protected void onPrepare(StreamContext context) {
        super.onPrepare(context);
        random = context.random();
    }

    // A readiness check draws nothing: only a track's start does, so that a seeded run makes the
    // same choices however often the operators around it ask.
    @Override
    protected boolean anyReady(Source current) {
        for (int i = 0; i < weights.length; i++) {
            if (weights[i] > 0 && choices.get(i).isReady()) return true;
        }
        return false;
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
