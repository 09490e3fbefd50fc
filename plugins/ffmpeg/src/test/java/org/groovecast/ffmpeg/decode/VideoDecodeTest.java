package org.groovecast.ffmpeg.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.Frame;
import org.groovecast.api.Image;
import org.groovecast.api.VideoFormat;
import org.groovecast.ffmpeg.Fixtures;
import org.junit.jupiter.api.Test;

class VideoDecodeTest {
    static final AudioFormat FORMAT = new AudioFormat(44100, 2);
    static final VideoFormat SMALL = new VideoFormat(320, 180, 25);

    /** 2 s red then 2 s blue, 640x360 at 25 fps, H.264 + AAC in Matroska. */
    static Path clip() throws IOException {
        Path out = Fixtures.DIR.resolve("red-blue.mkv");
        if (Files.exists(out)) return out;
        Files.createDirectories(out.getParent());
        Fixtures.run(
                List.of(
                        "ffmpeg",
                        "-nostdin",
                        "-v",
                        "error",
                        "-y",
                        "-filter_complex",
                        "color=c=red:s=640x360:r=25:d=2[r];color=c=blue:s=640x360:r=25:d=2[b];[r][b]concat=n=2:v=1:a=0[v];"
                                + "sine=frequency=440:sample_rate=44100:duration=4[a]",
                        "-map",
                        "[v]",
                        "-map",
                        "[a]",
                        "-c:v",
                        "libx264",
                        "-preset",
                        "ultrafast",
                        "-pix_fmt",
                        "yuv420p",
                        "-c:a",
                        "aac",
                        out.toString()));
        return out;
    }

    record Shown(long position, int u, int v) {}

    @Test
    void decodesPicturesScaledToTheClockFormatAtTheirTrackPositions() throws IOException {
        List<Shown> shown = new ArrayList<>();
        long samples = 0;
        try (MediaDecoder d = MediaDecoder.open(clip().toString(), FORMAT, SMALL, 1)) {
            assertTrue(d.hasVideo());
            Frame frame = new Frame(FORMAT, 882);
            for (long tick = 0; ; tick++) {
                frame.clear();
                int got = d.read(frame, frame.free(), tick);
                for (int i = 0; i < frame.imageCount(); i++) {
                    Image img = frame.image(i);
                    assertEquals(SMALL, img.format());
                    shown.add(
                            new Shown(
                                    samples + frame.imagePosition(i),
                                    img.plane(1).get(100) & 0xff,
                                    img.plane(2).get(100) & 0xff));
                }
                if (got == 0) break;
                samples += got;
            }
        }
        assertEquals(4.0, samples / 44100.0, 0.06, "audio duration");
        assertEquals(100, shown.size(), 1, "one picture per 40 ms");
        Shown first = shown.getFirst();
        // The muxer starts the video 23 ms after the audio (AAC priming): pictures follow the file,
        // except the first, which shows from the track's start instead of leaving 23 ms black.
        long videoStart = 1014;
        assertEquals(0, first.position(), "first picture from the start");
        assertEquals(
                40.0,
                (shown.get(1).position() - videoStart) / 44.1,
                1,
                "second picture 40 ms into the video");
        assertTrue(first.v() > 200 && first.u() < 110, "red first: " + first);
        Shown firstBlue = shown.stream().filter(s -> s.u() > 200).findFirst().orElseThrow();
        assertEquals(2.0 * 44100 + videoStart, firstBlue.position(), 45, "blue from 2 s of video");
        for (int i = 1; i < shown.size(); i++) {
            assertTrue(shown.get(i).position() > shown.get(i - 1).position(), "positions increase");
        }
    }

    @Test
    void audioOnlyOpeningIgnoresVideo() throws IOException {
        try (MediaDecoder d = MediaDecoder.open(clip().toString(), FORMAT)) {
            assertFalse(d.hasVideo());
            Frame frame = new Frame(FORMAT, 882);
            d.read(frame, frame.free(), 0);
            assertEquals(0, frame.imageCount());
        }
    }
}
