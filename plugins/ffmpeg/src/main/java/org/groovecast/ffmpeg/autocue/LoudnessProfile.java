package org.groovecast.ffmpeg.autocue;

import java.io.IOException;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.Frame;
import org.groovecast.api.LoudnessMeter;
import org.groovecast.ffmpeg.decode.MediaDecoder;

/**
 * A file's loudness over time, as the {@code lufs} operator measures it (EBU R128): the momentary
 * loudness (400 ms) every 100 ms, {@code momentary[k]} read at the end of block k (so it covers
 * blocks k-3..k), and the integrated loudness of the whole file. What autocue and computed
 * ReplayGain are derived from; small enough to cache (40 bytes a second).
 *
 * @param momentary LUFS per 100 ms block; negative infinity where silent
 * @param integrated gated loudness of the file, LUFS; negative infinity for a silent file
 * @param duration seconds decoded
 */
record LoudnessProfile(float[] momentary, double integrated, double duration) {
    /** Seconds per reading. */
    static final double STEP = 0.1;

    /**
     * Decodes {@code path} once, at {@code format} (what the station plays), and measures it;
     * blocking.
     */
    static LoudnessProfile measure(String path, AudioFormat format) throws IOException {
        try (MediaDecoder d = MediaDecoder.open(path, format)) {
            return of(d, format);
        }
    }

    static LoudnessProfile of(MediaDecoder d, AudioFormat format) throws IOException {
        LoudnessMeter meter = new LoudnessMeter(format.channels(), format.sampleRate());
        int block = format.sampleRate() / 10;
        Frame frame = new Frame(format, block);
        float[] readings = new float[1024];
        int n = 0;
        long samples = 0;
        while (true) {
            frame.clear();
            while (!frame.isFull() && d.read(frame, frame.free(), 0) > 0) {
                // a decoder hands out what it has: fill the whole block before measuring it
            }
            int got = frame.position();
            if (got == 0) break;
            meter.add(frame.pcm(), 0, got);
            samples += got;
            if (got < block) break; // a last partial block is no reading of its own
            if (n == readings.length) readings = java.util.Arrays.copyOf(readings, n * 2);
            readings[n++] = (float) meter.momentary();
        }
        return new LoudnessProfile(
                java.util.Arrays.copyOf(readings, n), meter.integrated(), format.seconds(samples));
    }

    /** Time of reading {@code k}: the start of its block. */
    static double time(int k) {
        return k * STEP;
    }
}
