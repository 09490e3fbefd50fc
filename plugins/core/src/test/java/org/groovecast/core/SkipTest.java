package org.groovecast.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.groovecast.api.Metadata;
import org.groovecast.api.OperatorProvider;
import org.groovecast.api.Source;
import org.groovecast.api.UserFunction;
import org.groovecast.testkit.FramePuller;
import org.groovecast.testkit.OperatorCall;
import org.groovecast.testkit.Pulled;
import org.groovecast.testkit.TestSource;
import org.junit.jupiter.api.Test;

/**
 * {@code s.skip()}: the track playing ends at once for everything downstream, also when the source
 * has its next track ready at once (a generator, a prefetched file), so a track-sensitive switch
 * above chooses again and {@code onTrack} fires; and a source that a switch cut earlier comes back
 * without an empty track.
 */
class SkipTest {
    static final int FRAME = 882;

    static Source op(OperatorProvider p, String name, Map<String, ?> named, Object... positional) {
        return OperatorCall.source(p, name, named, positional);
    }

    static Source gen(String name, Map<String, ?> named, Object... positional) {
        return op(new GeneratorOperators(), name, named, positional);
    }

    static Source select(String name, Map<String, ?> named, Object... positional) {
        return op(new SelectionOperators(), name, named, positional);
    }

    /** Every sample of [from, to) on channel 0 equals {@code level}. */
    static void assertLevel(double level, Pulled p, int from, int to) {
        for (int i = from; i < to; i++) {
            if (Math.abs(p.channel(0)[i] - level) > 1e-6) {
                throw new AssertionError(
                        "sample " + i + " is " + p.channel(0)[i] + ", expected " + level);
            }
        }
    }

    @Test
    void aSkippedGeneratorEndsItsTrackAndGoesOnInANewOne() {
        List<Source> generators =
                List.of(
                        gen("sine", Map.of(), 440),
                        gen("noise", Map.of()),
                        gen("blank", Map.of()),
                        gen("blank", Map.of("duration", 10)));
        for (Source s : generators) {
            List<Metadata> tracks = new ArrayList<>();
            s.onTrack(tracks::add);
            FramePuller puller = new FramePuller(s);
            puller.pull(3);
            s.skip();
            Pulled after = puller.pull(3);
            assertEquals(List.of(0), after.trackStarts(), s.kind() + ": a new track at the skip");
            assertEquals(after.length(), after.produced(), s.kind() + ": no gap");
            assertEquals(2, tracks.size(), s.kind() + ": onTrack for the new track");
        }
    }

    @Test
    void aSkipOfASourceThatPlaysNothingYetEndsNothing() {
        Source sine = gen("sine", Map.of(), 440);
        List<Metadata> tracks = new ArrayList<>();
        sine.onTrack(tracks::add);
        FramePuller puller = new FramePuller(sine);
        sine.skip();
        sine.skip();
        Pulled p = puller.pull(2);
        assertEquals(List.of(0), p.trackStarts());
        assertEquals(1, tracks.size());
    }

    @Test
    void aSkipOfTheInputMakesATrackSensitiveFallbackChooseAgainAtOnce() {
        TestSource live = TestSource.level(0.25).fallible();
        live.ready(false);
        Source music = gen("sine", Map.of(), 440);
        Source radio = select("fallback", Map.of(), live, music);
        List<Metadata> tracks = new ArrayList<>();
        radio.onTrack(tracks::add);
        FramePuller puller = new FramePuller(radio);
        puller.pull(5);
        live.ready(true);
        Pulled waiting = puller.pull(5);
        assertEquals(List.of(), waiting.trackStarts(), "track-sensitive: the music plays on");
        music.skip();
        Pulled p = puller.pull(3);
        assertEquals(List.of(0), p.trackStarts());
        assertLevel(0.25, p, 0, p.length());
        assertEquals(2, tracks.size());
    }

    @Test
    void aSkipOfTheSwitchItselfReachesThePlayingInput() {
        TestSource live = TestSource.level(0.25).fallible();
        live.ready(false);
        boolean[] on = {false};
        UserFunction liveOn = args -> on[0];
        Source music = gen("sine", Map.of(), 440);
        Source radio =
                select("switchOn", Map.of(), List.of(List.of(liveOn, live), List.of(true, music)));
        FramePuller puller = new FramePuller(radio);
        puller.pull(5);
        live.ready(true);
        on[0] = true;
        assertEquals(List.of(), puller.pull(5).trackStarts(), "track-sensitive: music plays on");
        radio.skip();
        Pulled p = puller.pull(3);
        assertEquals(List.of(0), p.trackStarts());
        assertLevel(0.25, p, 0, p.length());
    }

    @Test
    void aTrackOfAFileLikeSourceReadyAtOnceEndsAtTheSkipWithItsNextTitleThere() {
        TestSource music = TestSource.level(0.5).tracks(10).titled("song");
        Source radio = select("mksafe", Map.of(), music);
        FramePuller puller = new FramePuller(radio);
        puller.pull(5);
        music.skip();
        Pulled p = puller.pull(2);
        assertEquals(List.of(0), p.trackStarts());
        assertEquals("song 2", p.metadata().getFirst().metadata().get("title"));
        assertEquals(0, p.metadata().getFirst().position());
        assertLevel(0.5, p, 0, p.length());
    }

    @Test
    void anInputCutMidTrackComesBackWithoutAnEmptySelection() {
        TestSource live = TestSource.level(0.25).fallible();
        live.ready(false);
        TestSource music = TestSource.level(0.5).tracks(10);
        List<String> calls = new ArrayList<>();
        UserFunction onSelect = args -> calls.add("select " + args[0]);
        UserFunction onLeave = args -> calls.add("leave " + args[0]);
        Source radio =
                select(
                        "fallback",
                        Map.of("trackSensitive", false, "onSelect", onSelect, "onLeave", onLeave),
                        live,
                        music);
        FramePuller puller = new FramePuller(radio);
        puller.pull(5);
        live.ready(true); // cuts the music mid-track: its track ends there
        puller.pull(5);
        live.ready(false);
        Pulled back = puller.pull(5);
        assertLevel(0.5, back, FRAME, back.length());
        assertEquals(
                List.of(
                        "select " + music,
                        "leave " + music,
                        "select " + live,
                        "leave " + live,
                        "select " + music),
                calls);
    }

    @Test
    void maxDurationAndDelayPassASkipOnAsATrackEnd() {
        TestSource music = TestSource.level(0.5).tracks(10).titled("song");
        Source capped = op(new CompositionOperators(), "maxDuration", Map.of(), 5, music);
        FramePuller puller = new FramePuller(capped);
        puller.pull(5);
        capped.skip();
        Pulled p = puller.pull(2);
        assertEquals(List.of(0), p.trackStarts());
        assertEquals("song 2", p.metadata().getFirst().metadata().get("title"));
        assertEquals(p.length(), p.produced());

        TestSource jingles = TestSource.level(0.25).tracks(10);
        Source delayed = op(new CompositionOperators(), "delay", Map.of(), 0.1, jingles);
        Source radio = select("fallback", Map.of(), delayed, TestSource.level(0.5));
        FramePuller radioPuller = new FramePuller(radio);
        radioPuller.pull(5);
        delayed.skip();
        Pulled after = radioPuller.pull(10);
        assertEquals(0.5, after.channel(0)[0], 1e-6, "the delay holds the jingles back");
        assertEquals(List.of(0), after.trackStarts().subList(0, 1));
    }

    @Test
    void tracksEndsItsOwnTrackOnASkipAndTheSourceGoesOn() {
        TestSource music = TestSource.level(0.5).tracks(10).titled("song");
        Source split = gen("tracks", Map.of("duration", 1), music);
        FramePuller puller = new FramePuller(split);
        puller.pull(5);
        split.skip();
        Pulled p = puller.pull(5);
        assertEquals(List.of(0), p.trackStarts());
        assertEquals(List.of(), p.metadata(), "the source's own track goes on");
        assertEquals(p.length(), p.produced());
    }
}
