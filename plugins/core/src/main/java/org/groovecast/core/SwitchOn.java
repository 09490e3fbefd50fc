package org.groovecast.core;

import java.util.List;
import org.groovecast.api.CallbackScope;
import org.groovecast.api.Registration;
import org.groovecast.api.Source;
import org.groovecast.api.UserFunction;

/**
 * Plays the first input whose predicate holds and which is ready. Predicates are user code called
 * at every choice; what a call registers on the inputs is released before the next call.
 */
final class SwitchOn extends Selector {
    private final List<UserFunction> predicates;
    private Registration predicateRegistrations = Registration.NONE;

    SwitchOn(List<Source> choices, List<UserFunction> predicates, boolean trackSensitive, UserFunction onSelect) {
        super("switchOn", choices, trackSensitive, onSelect);
        this.predicates = predicates;
    }

    /** Every predicate may be false, so a switch may have nothing to play. */
    @Override
    public boolean isFallible() {
        return true;
    }

    @Override
    protected Source pick(Source current) {
        predicateRegistrations.release();
        CallbackScope.Collected<Source> chosen = CallbackScope.collect(choices, this::firstMatch);
        predicateRegistrations = chosen.registration();
        return chosen.value();
    }

    private Source firstMatch() {
        for (int i = 0; i < predicates.size(); i++) {
            Source s = choices.get(i);
            if (predicates.get(i).test() && s.isReady()) return s;
        }
        return null;
    }

    @Override
    protected void onShutdown() {
        super.onShutdown();
        predicateRegistrations.release();
    }
}
