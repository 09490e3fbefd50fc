package org.groovecast.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.Encoder;
import org.groovecast.api.Frame;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WavEncoderTest {
    static final Path DIR = Path.of("target", "wav-tests").toAbsolutePath();
    static final AudioFormat STEREO = new AudioFormat(44100, 2);

    @AfterAll
    static void removeSparseFiles() throws IOException {
        // They take little disk, but 4 and 5 GB to anything that copies target/.
        Files.deleteIfExists(DIR.resolve("long.wav"));
        Files.deleteIfExists(DIR.resolve("edge.wav"));
    }

    /** Encodes {@code frames} frames of 882 samples of a 440 Hz sine. */
    static void tone(Encoder.Session s, AudioFormat format, int frames, long[] t)
            throws IOException {
        Frame f = new Frame(format, 882);
        for (int i = 0; i < frames; i++) {
            f.clear();
            for (int k = 0; k < 882; k++, t[0]++) {
                float v = (float) (0.3 * Math.sin(2 * Math.PI * 440 * t[0] / format.sampleRate()));
                for (int c = 0; c < format.channels(); c++) f.channel(c)[k] = v;
            }
            f.advance(882);
            s.encode(f);
        }
    }

    static FileChannel create(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        return FileChannel.open(
                file,
                StandardOpenOption.CREATE,
                StandardOpenOption.WRITE,
                StandardOpenOption.READ,
                StandardOpenOption.TRUNCATE_EXISTING);
    }

    @Test
    void aShortWavIsPlainRiffByteForByteAsFfmpegWritesIt() throws IOException {
        Path ours = DIR.resolve("short.wav");
        try (FileChannel ch = create(ours);
                Encoder.Session s = new WavEncoder(16).open(STEREO, ch)) {
            tone(s, STEREO, 50, new long[1]);
        }
        Path theirs = DIR.resolve("short-ffmpeg.wav");
        run(
                "ffmpeg",
                "-nostdin",
                "-v",
                "error",
                "-y",
                "-i",
                ours.toString(),
                "-c",
                "copy",
                "-rf64",
                "auto",
                "-bitexact",
                theirs.toString());
        byte[] a = Files.readAllBytes(ours);
        assertEquals("RIFF", new String(a, 0, 4, StandardCharsets.US_ASCII));
        assertEquals(WavEncoder.HEADER + 50 * 882 * 4, a.length);
        assertArrayEquals(
                Files.readAllBytes(theirs),
                a,
                "the same bytes as ffmpeg -rf64 auto: RIFF, JUNK, fmt, data");
    }

    @Test
    void aWavPastFourGibibytesBecomesRf64WithItsRealSizes() throws IOException {
        Path file = DIR.resolve("long.wav");
        long skip = 5L << 30; // a sparse hole of 5 GiB: 8.1 hours of silence that take no disk
        try (FileChannel ch = create(file)) {
            long[] t = new long[1];
            try (Encoder.Session s = new WavEncoder(16).open(STEREO, ch)) {
                tone(s, STEREO, 50, t);
                ch.position(ch.position() + skip);
                tone(s, STEREO, 50, t);
            }
        }
        long size = Files.size(file);
        long data = size - WavEncoder.HEADER;
        assertEquals(WavEncoder.HEADER + skip + 100 * 882 * 4, size);
        ByteBuffer h = header(file);
        assertEquals("RF64", ascii(h, 0));
        assertEquals(0xFFFFFFFF, h.getInt(4));
        assertEquals("WAVE", ascii(h, 8));
        assertEquals("ds64", ascii(h, 12));
        assertEquals(28, h.getInt(16));
        assertEquals(size - 8, h.getLong(20), "RIFF size");
        assertEquals(data, h.getLong(28), "data size");
        assertEquals(data / 4, h.getLong(36), "sample frames");
        assertEquals("fmt ", ascii(h, 48));
        assertEquals("data", ascii(h, 72));
        assertEquals(0xFFFFFFFF, h.getInt(76));
        double seconds = data / 4 / 44100.0;
        assertTrue(seconds > 6.8 * 3600, "longer than what 32-bit sizes hold");
        assertEquals(
                seconds,
                Double.parseDouble(probe(file, "format=duration")),
                0.01,
                "ffprobe reads the RF64 duration");
        assertEquals("pcm_s16le", probe(file, "stream=codec_name"));
    }

    @Test
    void justUnderTheLimitStaysRiffAndAnOddDataChunkIsPadded() throws IOException {
        Path file = DIR.resolve("edge.wav");
        AudioFormat mono = new AudioFormat(44100, 1);
        // 24-bit mono: 3 bytes a sample, so 882 samples make an odd chunk; the file ends 1 byte
        // under 4 GiB + 8.
        long data = 0xFFFFFFFFL - (WavEncoder.HEADER - 8) - 1;
        data -= data % 3;
        if ((data & 1) == 0) data -= 3;
        try (FileChannel ch = create(file);
                Encoder.Session s = new WavEncoder(24).open(mono, ch)) {
            tone(s, mono, 1, new long[1]);
            ch.position(WavEncoder.HEADER + data - 882 * 3);
            tone(s, mono, 1, new long[1]);
        }
        ByteBuffer h = header(file);
        assertEquals("RIFF", ascii(h, 0));
        assertEquals("JUNK", ascii(h, 12));
        assertEquals(data, Integer.toUnsignedLong(h.getInt(76)), "data size");
        assertEquals(
                Files.size(file) - 8,
                Integer.toUnsignedLong(h.getInt(4)),
                "RIFF size, pad byte included");
        assertEquals(
                WavEncoder.HEADER + data + 1,
                Files.size(file),
                "one pad byte after an odd data chunk");
        assertEquals(data / 3 / 44100.0, Double.parseDouble(probe(file, "format=duration")), 0.01);
    }

    private static ByteBuffer header(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file)) {
            ByteBuffer h = ByteBuffer.allocate(WavEncoder.HEADER).order(ByteOrder.LITTLE_ENDIAN);
            while (h.hasRemaining() && ch.read(h) > 0) {
                // read the whole header
            }
            return h.flip();
        }
    }

    private static String ascii(ByteBuffer b, int at) {
        byte[] four = new byte[4];
        b.get(at, four);
        return new String(four, StandardCharsets.US_ASCII);
    }

    static String probe(Path file, String entry) throws IOException {
        return run(
                        "ffprobe",
                        "-v",
                        "error",
                        "-show_entries",
                        entry,
                        "-of",
                        "default=noprint_wrappers=1:nokey=1",
                        file.toString())
                .strip();
    }

    static String run(String... cmd) throws IOException {
        Process p =
                new ProcessBuilder(new ArrayList<>(List.of(cmd))).redirectErrorStream(true).start();
        try {
            String out = new String(p.getInputStream().readAllBytes());
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0)
                throw new IOException(String.join(" ", cmd) + ": " + out);
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }
}
