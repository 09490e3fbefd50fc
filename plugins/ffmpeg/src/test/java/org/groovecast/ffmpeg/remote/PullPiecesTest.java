package org.groovecast.ffmpeg.remote;

import static org.bytedeco.ffmpeg.global.avcodec.av_new_packet;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_alloc;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_free;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.groovecast.ffmpeg.shared.Av;
import org.groovecast.ffmpeg.shared.Backoff;
import org.groovecast.ffmpeg.shared.Interrupter;
import org.junit.jupiter.api.Test;

/**
 * The pieces of input.http and output.url that need no peer: ICY titles, the backoff, the packet
 * queue.
 */
class PullPiecesTest {
    @Test
    void icyTitlesSplitIntoArtistAndTitle() {
        assertEquals(
                Map.of("artist", "Nina Simone", "title", "Sinnerman"),
                StreamTags.split(
                        StreamTags.song("StreamTitle='Nina Simone - Sinnerman';StreamUrl='';")));
        assertEquals(
                Map.of("title", "News at six"),
                StreamTags.split(StreamTags.song("StreamTitle='News at six';")));
        // An apostrophe inside the title does not end it; only the closing "';" does.
        assertEquals(
                Map.of("artist", "Guns N' Roses", "title", "Don't Cry"),
                StreamTags.split(StreamTags.song("StreamTitle='Guns N' Roses - Don't Cry';")));
        assertNull(StreamTags.song("StreamUrl='http://x';"));
    }

    @Test
    void aReloadKeepsAFeedOnlyForTheSameRemoteAndBuffer() {
        var audio = new org.groovecast.api.AudioFormat(44100, 2);
        var same =
                new RemoteFeed.Remote("input.http", "http://r/", null, Map.of(), 10, audio, 2, 10);
        assertEquals(
                same,
                new RemoteFeed.Remote("input.http", "http://r/", null, Map.of(), 10, audio, 2, 10));
        assertTrue(
                !same.equals(
                        new RemoteFeed.Remote(
                                "input.http", "http://r/", null, Map.of(), 10, audio, 5, 10)),
                "another buffer: a new ring");
        assertTrue(
                !same.equals(
                        new RemoteFeed.Remote(
                                "input.http", "http://r/", null, Map.of(), 10, audio, 2, 30)),
                "another max: a new ring");
    }

    @Test
    void theReconnectorTriesAgainWithAFreshInterrupterUntilStopped() throws Exception {
        java.util.List<Interrupter> attempts = new java.util.concurrent.CopyOnWriteArrayList<>();
        Reconnector[] r = new Reconnector[1];
        r[0] =
                new Reconnector(
                        org.slf4j.LoggerFactory.getLogger(PullPiecesTest.class),
                        "test",
                        "up",
                        10,
                        () -> false);
        Thread t =
                Thread.ofPlatform()
                        .start(
                                () ->
                                        r[0].run(
                                                i -> {
                                                    attempts.add(i);
                                                    if (attempts.size() == 1) return "refused";
                                                    while (!r[0].stopped()) Thread.onSpinWait();
                                                    return "stopped";
                                                }));
        long end = System.nanoTime() + 5_000_000_000L;
        while (attempts.size() < 2 && System.nanoTime() < end) Thread.sleep(10);
        assertEquals(2, attempts.size(), "a second attempt after the backoff");
        r[0].stop();
        t.join(2000);
        assertTrue(!t.isAlive(), "stop() ends the loop");
        assertEquals(2, attempts.size());
        assertTrue(
                attempts.get(0) != attempts.get(1), "each attempt has an interrupter of its own");
    }

    @Test
    void theBackoffDoublesWithJitterUpToItsMaximumAndStartsOverOnceBack() {
        Backoff b = new Backoff(10);
        double[] bases = {1, 2, 4, 8, 10, 10};
        for (double base : bases) {
            double d = b.nextDelay();
            assertTrue(d >= base * 0.75 && d <= base * 1.25, d + " not within 25 % of " + base);
        }
        assertTrue(b.failed(), "the first failure of an episode is news");
        assertTrue(!b.failed(), "the next ones are not");
        assertTrue(b.recovered() >= 0);
        assertEquals(-1, b.recovered(), "no outage to report twice");
        assertTrue(b.nextDelay() <= 1.25, "back to the first delay");
        assertTrue(b.failed(), "a new episode is news again");
        Backoff half = new Backoff(0.5, 10);
        double first = half.nextDelay();
        assertTrue(first >= 0.375 && first <= 0.625, "a first delay of 0.5 s: " + first);
    }

    @Test
    void theQueueDropsTheOldestPacketsPastItsDurationOrItsSlots() throws Exception {
        Av.init();
        AVPacket p = av_packet_alloc();
        av_new_packet(p, 100);
        try (PacketQueue q = new PacketQueue(8, 1.0)) {
            int dropped = 0;
            for (int i = 0; i <= 10; i++)
                dropped += q.offer(p, 0, i * 0.1); // 0 .. 1.0 s: nothing to drop
            assertEquals(3, dropped, "eight slots for eleven packets: the three oldest go");
            assertEquals(8, q.size());
            PacketQueue.Slot s = q.take(10);
            assertEquals(0.3, s.time, 1e-9, "the oldest left is the fourth");
            q.recycle(s);
            assertEquals(7, q.size());
            // 2.5 s: everything older than 1.5 s goes, whatever the free slots
            dropped = q.offer(p, 0, 2.5);
            assertEquals(7, dropped);
            assertEquals(1, q.size());
        } finally {
            av_packet_free(p);
        }
    }
}
