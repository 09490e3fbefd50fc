package org.groovecast.ffmpeg.playlist;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.groovecast.api.Metadata;
import org.groovecast.api.RequestResolver;
import org.groovecast.api.ResolvedRequest;
import org.groovecast.ffmpeg.Fixtures;
import org.groovecast.testkit.FramePuller;
import org.groovecast.testkit.Pulled;
import org.junit.jupiter.api.Test;

/**
 * A skip of a request source whose next track is already open: the track ends at once for its
 * consumers (an empty get), and the next starts right after, with its metadata and {@code onTrack}.
 */
class RequestSkipTest {
    private static final String[] MP3 = {"-c:a", "libmp3lame", "-b:a", "128k"};

    /** Plain paths only, as the station's resolver treats them. */
    private static final RequestResolver PATHS =
            new RequestResolver() {
                @Override
                public double timeout() {
                    return 10;
                }

                @Override
                public <T> T resolve(String uri, Path baseDir, double timeout, Opener<T> opener)
                        throws IOException {
                    return opener.open(
                            new ResolvedRequest() {
                                @Override
                                public String file() {
                                    return uri;
                                }

                                @Override
                                public Metadata metadata() {
                                    return Metadata.EMPTY;
                                }

                                @Override
                                public void close() {}
                            });
                }
            };

    @Test
    void aSkipEndsTheTrackAtOnceThoughTheNextIsOpenAndTheNextStartsThere() throws IOException {
        Path a = Fixtures.tone("skip-a.mp3", 440, 4, "A", MP3);
        Path b = Fixtures.tone("skip-b.mp3", 880, 4, "B", MP3);
        RequestQueue q = new RequestQueue(List.of(a.toString(), b.toString()), 1, 0, PATHS);
        List<String> tracks = new ArrayList<>();
        q.onTrack(m -> tracks.add(m.get("title")));
        FramePuller puller = new FramePuller(q);
        try {
            Pulled first = puller.pullSeconds(1);
            assertEquals(List.of(0), first.trackStarts());
            q.skip();
            Pulled p = puller.pullSeconds(1);
            assertEquals(List.of(0), p.trackStarts(), "a track boundary at the skip");
            assertEquals("B", p.metadata().getFirst().metadata().get("title"));
            assertEquals(0, p.metadata().getFirst().position());
            assertEquals(p.length(), p.produced(), "no gap: B was ready");
            assertEquals(880, Fixtures.frequency(p.channel(0), 0, p.length(), 44_100), 5);
            assertEquals(List.of("A", "B"), tracks);
        } finally {
            q.shutdown();
        }
    }

    @Test
    void aSkipWhenNothingPlaysSkipsNothing() throws IOException {
        Path a = Fixtures.tone("skip-a.mp3", 440, 4, "A", MP3);
        Path b = Fixtures.tone("skip-b.mp3", 880, 4, "B", MP3);
        RequestQueue q = new RequestQueue(List.of(a.toString(), b.toString()), 1, 0, PATHS);
        FramePuller puller = new FramePuller(q);
        try {
            q.skip();
            Pulled p = puller.pullSeconds(1);
            assertEquals(List.of(0), p.trackStarts());
            assertEquals("A", p.metadata().getFirst().metadata().get("title"));
        } finally {
            q.shutdown();
        }
    }
}
