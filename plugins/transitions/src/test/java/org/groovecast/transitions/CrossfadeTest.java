package org.groovecast.transitions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.groovecast.api.Frame;
import org.groovecast.api.Generator;
import org.groovecast.api.Source;
import org.groovecast.api.UserFunction;
import org.groovecast.testkit.FramePuller;
import org.groovecast.testkit.MetadataAt;
import org.groovecast.testkit.OperatorCall;
import org.groovecast.testkit.Pulled;
import org.groovecast.testkit.TestSource;
import org.junit.jupiter.api.Test;

/** crossfade and cross over four-second tracks of a constant level, each titled. */
class CrossfadeTest {
    static final int SECOND = 44_100;

    static Source op(String name, Map<String, ?> named, Object... positional) {
        return OperatorCall.source(new TransitionOperators(), name, named, positional);
    }

    static TestSource songs() {
        return TestSource.level(0.5).tracks(4).titled("song");
    }

    static List<String> titles(Pulled p) {
        return p.metadata().stream().map(m -> m.metadata().get("title")).toList();
    }

    @Test
    void theEndOfEachTrackOverlapsTheStartOfTheNext() {
        Source x = op("crossfade", Map.of("duration", 1), songs());
        Pulled p = new FramePuller(x).pullSeconds(8);
        // 4 s tracks overlapping by 1 s: a new one every 3 s, where its mix begins
        assertEquals(List.of(0, 3 * SECOND, 6 * SECOND), p.trackStarts());
        assertEquals(p.length(), p.produced());
    }

    @Test
    void bothTracksSoundDuringTheOverlap() {
        // the new track at full level at once, the old one falling under it: louder than either
        // alone
        Source x =
                op(
                        "crossfade",
                        Map.of("duration", 1, "fadeIn", 0, "fadeOut", 1, "type", "lin"),
                        songs());
        Pulled p = new FramePuller(x).pullSeconds(5);
        float[] y = p.channel(0);
        assertEquals(0.5, y[3 * SECOND - 1], 1e-6);
        assertEquals(1.0, y[3 * SECOND], 1e-3);
        assertEquals(0.75, y[3 * SECOND + SECOND / 2], 1e-3);
        assertEquals(0.5, y[4 * SECOND], 1e-6);
    }

    @Test
    void aSineCrossfadeKeepsAConstantLevelConstant() {
        // sin fades of the overlap's length add up to one (cos^2 + sin^2)
        Source x = op("crossfade", Map.of("duration", 1, "fadeIn", 1, "fadeOut", 1), songs());
        Pulled p = new FramePuller(x).pullSeconds(5);
        for (int i = 2 * SECOND; i < 5 * SECOND; i++)
            assertEquals(0.5, p.channel(0)[i], 1e-3, "sample " + i);
    }

    @Test
    void theNextTracksMetadataArrivesOnceWhereItBecomesAudible() {
        Pulled p = new FramePuller(op("crossfade", Map.of("duration", 1), songs())).pullSeconds(8);
        assertEquals(List.of("song 1", "song 2", "song 3"), titles(p));
        assertEquals(
                List.of(0, 3 * SECOND, 6 * SECOND),
                p.metadata().stream().map(MetadataAt::position).toList());
    }

    @Test
    void crossCallsTheFunctionOncePerTransitionWithBothEnds() {
        List<String> calls = new ArrayList<>();
        UserFunction transition =
                args -> {
                    Map<?, ?> a = (Map<?, ?>) args[0];
                    Map<?, ?> b = (Map<?, ?>) args[1];
                    calls.add(
                            ((Map<?, ?>) a.get("metadata")).get("title")
                                    + " -> "
                                    + ((Map<?, ?>) b.get("metadata")).get("title"));
                    assertEquals(20 * Math.log10(0.5), (double) a.get("db"), 1e-3);
                    assertTrue(b.get("source") instanceof Source);
                    return b.get("source"); // straight into the new track
                };
        Pulled p =
                new FramePuller(op("cross", Map.of("duration", 1), songs(), transition))
                        .pullSeconds(8);
        assertEquals(List.of("song 1 -> song 2", "song 2 -> song 3"), calls);
        assertEquals(List.of("song 1", "song 2", "song 3"), titles(p));
        assertEquals(List.of(0, 3 * SECOND, 6 * SECOND), p.trackStarts());
        assertEquals(p.length(), p.produced());
    }

    @Test
    void aCrossFunctionThatReturnsNoSourceGivesAPlainCut() {
        UserFunction broken = args -> "not a source";
        Pulled p =
                new FramePuller(op("cross", Map.of("duration", 1), songs(), broken)).pullSeconds(8);
        assertEquals(p.length(), p.produced());
        assertEquals(
                0.5, p.rms(0), 1e-6); // the old tail, then the new head, no gap and nothing doubled
        assertEquals(List.of("song 1", "song 2"), titles(p));
        // the track boundary where the mix began, the new title where the new track is heard
        assertEquals(
                List.of(0, 4 * SECOND), p.metadata().stream().map(MetadataAt::position).toList());
    }

    @Test
    void aSkipEndsTheTrackAtOnceAndTheNextStartsThereWithoutAFade() {
        Source x = op("crossfade", Map.of("duration", 1), songs());
        FramePuller puller = new FramePuller(x);
        puller.pullSeconds(1);
        x.skip();
        Pulled p = puller.pullSeconds(1);
        assertEquals(List.of(0), p.trackStarts());
        assertEquals(List.of("song 2"), titles(p));
        assertEquals(0, p.metadata().getFirst().position());
        assertEquals(p.length(), p.produced());
        assertEquals(0.5, p.channel(0)[0], 1e-6, "a plain cut: the new track at its level at once");
    }

    @Test
    void aSkipDuringTheMixDropsTheRestOfItAndEndsTheTrackItBegan() {
        Source x = op("crossfade", Map.of("duration", 1), songs());
        FramePuller puller = new FramePuller(x);
        puller.pullSeconds(3.5); // song 2 began with the mix at 3 s
        x.skip();
        Pulled p = puller.pullSeconds(1);
        assertEquals(List.of(0), p.trackStarts());
        assertEquals(List.of("song 3"), titles(p));
        assertEquals(0.5, p.channel(0)[0], 1e-6);
    }

    @Test
    void aSkipOfASourceWhoseNextTrackIsReadyAtOnceEndsTheTrackThroughTheCrossfade() {
        Source tone = new Level(0.5);
        Source x = op("crossfade", Map.of("duration", 1), tone);
        FramePuller puller = new FramePuller(x);
        puller.pullSeconds(1);
        tone.skip();
        Pulled p = puller.pullSeconds(1);
        assertEquals(List.of(0), p.trackStarts());
        assertEquals(p.length(), p.produced());
    }

    /** A constant level, endless: a generator, whose skip starts its next track at once. */
    private static final class Level extends Generator {
        private final float level;

        Level(double level) {
            super("level");
            this.level = (float) level;
        }

        @Override
        protected void generate(Frame frame) {
            for (float[] plane : frame.pcm())
                Arrays.fill(plane, frame.position(), frame.end(), level);
            frame.advance(frame.free());
        }
    }
}
