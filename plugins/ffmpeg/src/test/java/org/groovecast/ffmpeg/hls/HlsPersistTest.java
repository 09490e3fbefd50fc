package org.groovecast.ffmpeg.hls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.groovecast.api.Source;
import org.groovecast.api.UserFunction;
import org.groovecast.ffmpeg.encode.EncoderOperators;
import org.groovecast.testkit.OperatorCall;
import org.groovecast.testkit.TestContext;
import org.groovecast.testkit.TestSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * output.file.hls with segmentName, playlist, tempDir and persistAt: the names the script's
 * function gives (from what it is told of each segment), and a restart that goes on with the media
 * sequence the last run saved.
 */
class HlsPersistTest {
    @TempDir Path dir;

    private final List<Map<?, ?>> asked = new ArrayList<>();

    private final UserFunction names =
            args -> {
                Map<?, ?> m = (Map<?, ?>) args[0];
                asked.add(m);
                return "seg-"
                        + m.get("streamName")
                        + "-"
                        + m.get("position")
                        + "."
                        + m.get("extname");
            };

    private HlsOutput output(Map<String, Object> extra) {
        Object aac =
                OperatorCall.call(
                        OperatorCall.find("aac", new EncoderOperators()), Map.of("bitrate", 64));
        Map<String, Object> named = new LinkedHashMap<>();
        named.put("segmentDuration", 1.0);
        named.put("segments", 3);
        named.putAll(extra);
        return (HlsOutput)
                OperatorCall.call(
                        OperatorCall.find("output.file.hls", new OutputOperators()),
                        named,
                        dir.toString(),
                        Map.of("lo", aac),
                        TestSource.sine(440, 0.3));
    }

    /** Runs {@code out} for {@code seconds} of stream, as its clock would, then stops it. */
    private static void run(HlsOutput out, double seconds) throws Exception {
        TestContext ctx = TestContext.standard();
        out.prepare(ctx);
        out.start();
        long frames = ctx.samples(seconds) / ctx.frameSize();
        for (long i = 0; i < frames; i++) {
            for (Source s : List.of(out, out.inputs().getFirst())) s.beforeTick();
            out.tick();
            out.afterTick();
            ctx.tick();
        }
        out.stop();
    }

    private static final Pattern SEGMENT = Pattern.compile("(?m)^(seg-\\S+)$");

    private List<String> listed(String playlist) throws Exception {
        List<String> files = new ArrayList<>();
        Matcher m = SEGMENT.matcher(Files.readString(dir.resolve(playlist)));
        while (m.find()) files.add(m.group(1));
        return files;
    }

    private static long mediaSequence(String text) {
        Matcher m = Pattern.compile("#EXT-X-MEDIA-SEQUENCE:(\\d+)").matcher(text);
        assertTrue(m.find(), text);
        return Long.parseLong(m.group(1));
    }

    @Test
    void segmentsAreNamedByTheScriptsFunctionWithWhatLiquidsoapTellsIt() throws Exception {
        run(output(Map.of("segmentName", names, "playlist", "live.m3u8")), 4.5);
        assertEquals(List.of("seg-lo-3.ts", "seg-lo-4.ts", "seg-lo-5.ts"), listed("lo.m3u8"));
        for (String f : listed("lo.m3u8")) assertTrue(Files.exists(dir.resolve(f)), f);
        String text = Files.readString(dir.resolve("lo.m3u8"));
        long ticks = 0;
        for (int i = 0; i < asked.size(); i++) {
            Map<?, ?> m = asked.get(i);
            assertEquals(i + 1L, m.get("position"), "Liquidsoap counts positions from 1");
            assertEquals("ts", m.get("extname"));
            assertEquals("lo", m.get("streamName"));
            double seconds = (Double) m.get("duration");
            assertEquals(Math.round(seconds * 44100), (Long) m.get("ticks"), "samples");
            if (i >= 2)
                assertTrue(
                        text.contains(
                                String.format(java.util.Locale.ROOT, "#EXTINF:%.3f,%n", seconds)
                                        + "seg-lo-"
                                        + (i + 1)
                                        + ".ts"),
                        "named when finished, with its length: " + text);
            ticks += (Long) m.get("ticks");
        }
        assertEquals(5, asked.size());
        assertEquals(4.5 * 44100, ticks, "the segments' ticks add up to what was sent");
        assertTrue(Files.exists(dir.resolve("live.m3u8")), "the master playlist's name");
        assertFalse(Files.exists(dir.resolve("stream.m3u8")));
        try (var files = Files.list(dir)) {
            assertTrue(
                    files.noneMatch(p -> p.getFileName().toString().endsWith(".part")),
                    "no temporary file left");
        }
    }

    @Test
    void aRestartGoesOnWithTheMediaSequenceSavedAtPersistAt() throws Exception {
        Path temp = dir.resolve("tmp"); // made by the output
        Map<String, Object> options =
                Map.of(
                        "segmentName",
                        names,
                        "persistAt",
                        "state/hls.state",
                        "tempDir",
                        temp.toString());
        run(output(options), 4.5);
        Path state = dir.resolve("state/hls.state");
        assertTrue(Files.exists(state), "saved at stop");
        String before = Files.readString(dir.resolve("lo.m3u8"));
        assertFalse(before.contains("#EXT-X-ENDLIST"), "players keep polling across the restart");
        assertEquals(2, mediaSequence(before));

        HlsOutput second = output(options);
        TestContext ctx = TestContext.standard();
        second.prepare(ctx);
        second.start();
        assertFalse(Files.exists(state), "read once, then gone, as Liquidsoap does");
        second.stop();
        run(output(options), 0); // nothing saved by the first restart's own stop is lost
        HlsOutput third = output(options);
        run(third, 1.5);
        String after = Files.readString(dir.resolve("lo.m3u8"));
        assertEquals(
                List.of("seg-lo-5.ts", "seg-lo-6.ts", "seg-lo-7.ts"), listed("lo.m3u8"), after);
        assertEquals(4, mediaSequence(after), "the sequence goes on where it stopped");
        assertTrue(
                Pattern.compile("#EXT-X-DISCONTINUITY\n#EXTINF:[0-9.]+,\nseg-lo-6.ts")
                        .matcher(after)
                        .find(),
                "a new encoder after a discontinuity: " + after);
        assertFalse(Files.exists(dir.resolve("seg-lo-1.ts")), "a round out of the window: deleted");
        assertTrue(after.contains("#EXT-X-DISCONTINUITY-SEQUENCE:0"), after);
        try (var files = Files.list(temp)) {
            assertEquals(0, files.count(), "segments moved out of tempDir");
        }
    }

    @Test
    void aStateItCannotReadIsSaidOnceAndThePlaylistBeginsAnew() throws Exception {
        Files.writeString(dir.resolve("hls.config"), "{\"streams\": []}");
        run(output(Map.of("segmentName", names, "persistAt", "hls.config")), 2.5);
        assertEquals(0, mediaSequence(Files.readString(dir.resolve("lo.m3u8"))));
        assertEquals(List.of("seg-lo-1.ts", "seg-lo-2.ts", "seg-lo-3.ts"), listed("lo.m3u8"));
    }

    @Test
    void aNameThatIsNoFileNameKeepsTheStandardOne() throws Exception {
        run(output(Map.of("segmentName", (UserFunction) a -> "../escape.ts")), 1.5);
        String text = Files.readString(dir.resolve("lo.m3u8"));
        assertTrue(text.contains("\nlo_0.ts\n"), text);
        assertFalse(Files.exists(dir.getParent().resolve("escape.ts")));
    }

    @Test
    void theStateFileReadsBackWhatWasWritten() throws Exception {
        HlsPlaylist p = new HlsPlaylist(2, 2, 1);
        p.add("a b.ts", 2, false, null);
        p.add("c.m4s", 1.5, true, "init.mp4");
        p.add("d.m4s", 2, false, "init.mp4");
        Path file = dir.resolve("s/state");
        HlsState.write(file, Map.of("a", p.saved()));
        HlsState.Saved back = HlsState.read(file).get("a");
        assertEquals(p.saved(), back);
        HlsPlaylist resumed = new HlsPlaylist(2, 2, 1).resumed(back);
        assertEquals(p.render(false), resumed.render(false));
        assertEquals(3, resumed.nextSequence());
    }
}
