package org.groovecast.core;

import java.time.ZonedDateTime;
import java.util.List;
import org.groovecast.api.CallbackScope;
import org.groovecast.api.Condition;
import org.groovecast.api.Registration;
import org.groovecast.api.Source;
import org.groovecast.api.StreamContext;
import org.groovecast.api.UserFunction;

/**
 * Plays the first input whose predicate holds and which is ready. Predicates are conditions ({@code
 * time.between(...)}), or user code and booleans wrapped as conditions. User code is called at
 * every choice; what a call registers on the inputs is released before the next call.
 *
 * <p>Conditions on instants ({@code time.at}) count from the end of the frame of this switch's last
 * choice, so an instant that passed mid-track is still seen at the next track boundary.
 *
 * <p>Track-sensitive, a choice is made once, by the first question (whether the switch is ready, or
 * its next get), and kept until a track of the input chosen ends or that input is no longer ready,
 * as Liquidsoap's switch keeps its selection: a predicate that counts its calls ({@code
 * predicate.at_most(1, {0m})}, AzuraCast's once-an-hour jingle) is asked once per choice, not once
 * by the readiness check and again by the get that follows it.
 */
final class SwitchOn extends Selector {
    private final List<Condition> predicates;
    private Registration predicateRegistrations = Registration.NONE;
    private ZonedDateTime since;
    private final boolean trackSensitive;

    /** The choice made and not yet played to the end of a track (track-sensitive only). */
    private Source chosen;

    SwitchOn(
            List<Source> choices,
            List<Condition> predicates,
            boolean trackSensitive,
            UserFunction onSelect,
            UserFunction onLeave,
            boolean replayMetadata,
            Transitions transitions) {
        super("switchOn", choices, trackSensitive, onSelect, onLeave, replayMetadata, transitions);
        this.predicates = predicates;
        this.trackSensitive = trackSensitive;
    }

    /** A script function as a condition: called on the clock at every evaluation. */
    static Condition of(UserFunction f) {
        return (context, since) -> f.test();
    }

    /** Every predicate may be false, so a switch may have nothing to play. */
    @Override
    public boolean isFallible() {
        return true;
    }

    @Override
    protected Source pick(Source current) {
        if (chosen != null && chosen.isReady()) return chosen;
        predicateRegistrations.release();
        CallbackScope.Collected<Source> found = CallbackScope.collect(choices, this::firstMatch);
        predicateRegistrations = found.registration();
        chosen = trackSensitive ? found.value() : null;
        return found.value();
    }

    @Override
    protected void trackEnded(Source source) {
        chosen = null;
    }

    private Source firstMatch() {
        StreamContext context = context();
        if (since == null) since = context.now();
        for (int i = 0; i < predicates.size(); i++) {
            Source s = choices.get(i);
            if (predicates.get(i).holds(context, since) && s.isReady()) return s;
        }
        return null;
    }

    @Override
    protected void selected(Source source) {
        since = FrameTime.end(context());
    }

    @Override
    protected void onShutdown() {
        super.onShutdown();
        predicateRegistrations.release();
    }
}
