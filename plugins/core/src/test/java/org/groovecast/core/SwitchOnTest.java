package org.groovecast.core;

import static org.groovecast.core.SelectionOperatorsTest.FRAME;
import static org.groovecast.core.SelectionOperatorsTest.assertLevel;
import static org.groovecast.core.SelectionOperatorsTest.op;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.groovecast.api.Condition;
import org.groovecast.api.Source;
import org.groovecast.testkit.FramePuller;
import org.groovecast.testkit.Pulled;
import org.groovecast.testkit.TestSource;
import org.junit.jupiter.api.Test;

/** switchOn: how often its predicates are asked. */
class SwitchOnTest {
    @Test
    void aTrackSensitiveSwitchAsksAPredicateOncePerChoiceAndPlaysWhatItChose() {
        // true at its first call only, as predicate.at_most(1, {0m}) is in the minute it holds
        AtomicInteger asked = new AtomicInteger();
        Condition once = (context, since) -> asked.incrementAndGet() == 1;
        Source jingle = TestSource.level(0.25).tracks(0.1);
        Source music = TestSource.level(0.5).tracks(0.1);
        Source s = op("switchOn", Map.of(), List.of(List.of(once, jingle), List.of(true, music)));

        Pulled p = new FramePuller(s).pullSeconds(0.3);

        assertLevel(0.25, p, 0, 4_410); // the jingle's track: its predicate held when asked
        assertLevel(0.5, p, 4_410, 3 * 4_410);
        assertEquals(3, asked.get()); // once for each of the three choices
        assertEquals(0, p.length() % FRAME);
    }
}
