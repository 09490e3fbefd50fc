package org.groovecast.ffmpeg;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.Frame;
import org.groovecast.ffmpeg.decode.MediaDecoder;

/**
 * Test media, made at test time by the ffmpeg command line (installed by .ci/run) so that no binary
 * fixture lives in git: tones of known frequency and length, with tags; and what a decoder reads of
 * them, for the tests of every role.
 */
public final class Fixtures {
    public static final Path DIR = Path.of("target", "fixtures");

    /** The format {@link #decodeAll} reads in: 44.1 kHz stereo. */
    private static final AudioFormat DECODED = new AudioFormat(44100, 2);

    private Fixtures() {}

    /**
     * A {@code seconds} long sine at {@code freq} Hz, stereo 44.1 kHz unless the codec dictates,
     * tagged with {@code title}, encoded with the extension's usual codec.
     */
    public static Path tone(
            String name, double freq, double seconds, String title, String... codecArgs)
            throws IOException {
        Path out = DIR.resolve(name);
        if (Files.exists(out)) return out;
        Files.createDirectories(DIR);
        List<String> cmd =
                new ArrayList<>(
                        List.of(
                                "ffmpeg",
                                "-nostdin",
                                "-v",
                                "error",
                                "-y",
                                "-f",
                                "lavfi",
                                "-i",
                                "sine=frequency=" + freq + ":sample_rate=44100:duration=" + seconds,
                                "-ac",
                                "2",
                                "-metadata",
                                "title=" + title,
                                "-metadata",
                                "artist=Groovecast Tests"));
        cmd.addAll(List.of(codecArgs));
        cmd.add(out.toString());
        run(cmd);
        return out;
    }

    public static void run(List<String> cmd) throws IOException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try {
            String output = new String(p.getInputStream().readAllBytes());
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IOException(String.join(" ", cmd) + " failed: " + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    /** ffprobe's value of {@code entry} (e.g. format=duration) for {@code file}. */
    public static String probe(Path file, String entry) throws IOException {
        Process p =
                new ProcessBuilder(
                                "ffprobe",
                                "-v",
                                "error",
                                "-show_entries",
                                entry,
                                "-of",
                                "default=noprint_wrappers=1:nokey=1",
                                file.toString())
                        .redirectErrorStream(true)
                        .start();
        try {
            String out = new String(p.getInputStream().readAllBytes()).strip();
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0)
                throw new IOException("ffprobe " + file + ": " + out);
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    /** Frequency of plane 0 of {@code pcm[0..n)} by counting zero crossings. */
    public static double frequency(float[] pcm, int from, int to, int sampleRate) {
        int crossings = 0;
        for (int i = from + 1; i < to; i++) {
            if ((pcm[i - 1] < 0) != (pcm[i] < 0)) crossings++;
        }
        return crossings / 2.0 / ((to - from) / (double) sampleRate);
    }

    /** Decodes the whole file, 882 samples at a time as a clock would. */
    public static float[] decodeAll(MediaDecoder d) throws IOException {
        float[] all = new float[DECODED.sampleRate() * 20];
        int n = 0;
        Frame frame = new Frame(DECODED, 882);
        while (true) {
            frame.clear();
            int got = d.read(frame, frame.free(), 0);
            if (got == 0) break;
            System.arraycopy(frame.channel(0), 0, all, n, got);
            n += got;
        }
        return Arrays.copyOf(all, n);
    }
}
