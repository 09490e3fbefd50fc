package org.groovecast.host.clock;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.Frame;
import org.groovecast.api.Metadata;
import org.groovecast.api.Source;
import org.groovecast.api.StreamContext;
import org.groovecast.api.TestSources;
import org.groovecast.api.TestSources.Counter;
import org.groovecast.api.Transform;
import org.junit.jupiter.api.Test;

/**
 * A source with two consumers, served through {@link SharedFrame} as a clock's context serves it.
 */
class SharedFrameTest {
    /** Pulls {@code s} into {@code frame} until full, as an output does. */
    private static void fill(Source s, Frame frame) {
        frame.clear();
        while (!frame.isFull()) s.get(frame);
    }

    @Test
    void aSourceWithTwoConsumersComputesEachTickOnceAndServesBoth() {
        Counter shared = new Counter(1000);
        Source a = passThrough(shared);
        Source b = passThrough(shared);
        a.prepare(context(10));
        b.prepare(context(10));
        Frame fa = new Frame(new AudioFormat(1000, 1), 10);
        Frame fb = new Frame(new AudioFormat(1000, 1), 10);
        for (int tick = 0; tick < 3; tick++) {
            for (Source s : List.of(a, b, shared)) s.beforeTick();
            fill(a, fa);
            fill(b, fb);
            for (int i = 0; i < 10; i++) assertEquals(fa.channel(0)[i], fb.channel(0)[i]);
            assertEquals(tick * 10, fa.channel(0)[0]);
        }
        assertEquals(3, shared.generateCalls, "one generate per tick");
    }

    @Test
    void aSharedSourceThatEndsItsTrackWithNothingDoesNotSpin() {
        Counter empty = new Counter(0); // every get ends a track at once
        Source a = passThrough(empty);
        Source b = passThrough(empty);
        a.prepare(context(10));
        b.prepare(context(10));
        Frame f = new Frame(new AudioFormat(1000, 1), 10);
        empty.beforeTick();
        a.get(f);
        assertEquals(0, f.position());
        b.get(f);
        assertEquals(0, f.position());
    }

    @Test
    void everyConsumerOfASharedSourceSeesATrackThatEndsOnAFrameBoundary() {
        Counter shared = new Counter(20); // tracks of exactly two frames
        Source a = passThrough(shared);
        Source b = passThrough(shared);
        a.prepare(context(10));
        b.prepare(context(10));
        Frame fa = new Frame(new AudioFormat(1000, 1), 10);
        Frame fb = new Frame(new AudioFormat(1000, 1), 10);
        int[] emptyGets = new int[2];
        for (int tick = 0; tick < 4; tick++) {
            for (Source s : List.of(a, b, shared)) s.beforeTick();
            int k = 0;
            for (Frame f : List.of(fa, fb)) {
                Source consumer = k == 0 ? a : b;
                f.clear();
                while (!f.isFull()) {
                    int before = f.position();
                    consumer.get(f);
                    if (f.position() == before) emptyGets[k]++;
                }
                k++;
            }
        }
        assertEquals(1, emptyGets[0], "the first consumer sees the track end at tick 2");
        assertEquals(
                1, emptyGets[1], "and so does the second, though the source ran for the first");
    }

    @Test
    void aSkipOfASharedSourceEndsTheTrackOnceForEachConsumer() {
        Counter shared = new Counter(1000);
        Source a = passThrough(shared);
        Source b = passThrough(shared);
        a.prepare(context(10));
        b.prepare(context(10));
        Frame fa = new Frame(new AudioFormat(1000, 1), 10);
        Frame fb = new Frame(new AudioFormat(1000, 1), 10);
        for (Source s : List.of(a, b, shared)) s.beforeTick();
        fill(a, fa);
        fill(b, fb);
        shared.skip();
        for (Source s : List.of(a, b, shared)) s.beforeTick();
        for (Frame f : List.of(fa, fb)) {
            Source consumer = f == fa ? a : b;
            f.clear();
            consumer.get(f);
            assertEquals(0, f.position(), "the skipped track ends where the frame starts");
            consumer.get(f);
            assertEquals(10, f.position());
            assertEquals(10, f.channel(0)[0], "both go on with the same samples");
        }
        assertEquals(2, shared.generateCalls, "one generate per tick");
    }

    @Test
    void remainingForCorrectsForASharedSourceThatRanAheadForAnotherConsumer() {
        Counter shared = new Counter(100);
        Source a = passThrough(shared);
        Source b = passThrough(shared);
        a.prepare(context(10));
        b.prepare(context(10));
        Frame fa = new Frame(new AudioFormat(1000, 1), 10);
        Frame fb = new Frame(new AudioFormat(1000, 1), 10);
        for (Source s : List.of(a, b, shared)) s.beforeTick();
        a.get(fa);
        assertEquals(90, shared.remaining(), "the source itself is a frame on");
        assertEquals(
                100, shared.remainingFor(fb), "the second consumer has not had that frame yet");
        assertEquals(90, shared.remainingFor(fa));
    }

    /**
     * A shared source that had nothing for several gets before it started a track with metadata in
     * the same tick (a fallback whose request was resolving, in AzuraCast's chain: one consumer
     * kept asking): the others, which give up after 4 empty gets in a row as an output does, must
     * not have to replay every one of those empty gets before they are served the track, or they
     * never get it and its metadata is lost for them (the title on an icecast mount stayed).
     */
    @Test
    void consumersThatGiveUpAfterAFewEmptyGetsStillGetTheMetadataThatFollows() {
        int[] emptyLeft = {6};
        Source late =
                new org.groovecast.api.Generator("late") {
                    @Override
                    protected void generate(Frame frame) {
                        if (emptyLeft[0]-- > 0) return;
                        if (emptyLeft[0] == -1) frame.addMetadata(0, Metadata.of("title", "t"));
                        frame.advance(frame.free());
                    }
                };
        // three outputs pulling it directly, as AzuraCast's two mounts and its HLS pull `radio`
        StreamContext context = context(10);
        for (int k = 0; k < 3; k++) late.prepare(context);
        List<Integer> titles = new java.util.ArrayList<>();
        for (int tick = 0; tick < 3; tick++) {
            late.beforeTick();
            for (int k = 0; k < 3; k++) {
                Frame f = new Frame(new AudioFormat(1000, 1), 10);
                // the first asks until it has data; the others as Output.tick does
                int patience = k == 0 ? 10 : 4;
                int empty = 0;
                while (!f.isFull()) {
                    int before = f.position();
                    late.get(f);
                    if (f.position() == before && ++empty == patience) break;
                }
                for (int i = 0; i < f.metadataCount(); i++) titles.add(k);
            }
        }
        assertEquals(List.of(0, 1, 2), titles, "each consumer gets the title once");
    }

    private static Source passThrough(Source in) {
        return new Transform("pass", in) {
            @Override
            protected void generate(Frame frame) {
                input.get(frame);
            }
        };
    }

    /** A context that shares as a clock's does. */
    private static StreamContext context(int frameSize) {
        return TestSources.context(
                frameSize,
                (source, fill) ->
                        new SharedFrame(new Frame(new AudioFormat(1000, 1), frameSize), fill));
    }
}
