package org.groovecast.scripts.support

import java.nio.ByteBuffer
import java.nio.ByteOrder
import java.nio.file.Files
import java.nio.file.Path

/** Reads back the 16-bit PCM WAV files that output.file(wav()) writes, checking the header. */
final class Wav {
    int channels
    int sampleRate
    int bits
    short[][] samples
    /** Samples as floats in [-1, 1), at full precision (16 or 24 bits). */
    float[][] floats

    static Wav read(Path path) {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(path)).order(ByteOrder.LITTLE_ENDIAN)
        assert new String(bytes(b, 4), 'US-ASCII') == 'RIFF'
        int riffSize = b.getInt()
        assert riffSize == b.capacity() - 8: 'RIFF size must be fixed up on a clean stop'
        assert new String(bytes(b, 4), 'US-ASCII') == 'WAVE'
        // chunks before fmt are skipped: the JUNK that holds the place of an RF64 ds64 chunk, ffmpeg's LIST
        String chunk
        while ((chunk = new String(bytes(b, 4), 'US-ASCII')) != 'fmt ') {
            assert chunk in ['JUNK', 'LIST']
            int size = b.getInt()
            b.position(b.position() + size + (size & 1))
        }
        assert b.getInt() == 16
        assert b.getShort() == 1
        Wav w = new Wav(channels: b.getShort(), sampleRate: b.getInt())
        b.getInt(); b.getShort()
        w.bits = b.getShort()
        assert w.bits == 16 || w.bits == 24
        assert new String(bytes(b, 4), 'US-ASCII') == 'data'
        int dataSize = b.getInt()
        assert dataSize == b.remaining() - (dataSize & 1): 'data size must be fixed up on a clean stop'
        int width = w.bits.intdiv(8)
        int frames = dataSize.intdiv(width * w.channels)
        w.samples = new short[w.channels][frames]
        w.floats = new float[w.channels][frames]
        for (int i = 0; i < frames; i++) {
            for (int c = 0; c < w.channels; c++) {
                if (w.bits == 16) {
                    short v = b.getShort()
                    w.samples[c][i] = v
                    w.floats[c][i] = v / 32768f
                } else {
                    int v = (b.get() & 0xff) | (b.get() & 0xff) << 8 | b.get() << 16
                    w.samples[c][i] = (short) (v >> 8)
                    w.floats[c][i] = v / 8388608f
                }
            }
        }
        w
    }

    private static byte[] bytes(ByteBuffer b, int n) {
        byte[] out = new byte[n]
        b.get(out)
        out
    }

    int getFrames() { samples[0].length }

    double getSeconds() { frames / (double) sampleRate }

    /** Frequency of channel 0 over [from, to) seconds, by counting zero crossings. */
    double frequency(double from, double to) {
        int a = (int) (from * sampleRate)
        int b = (int) (to * sampleRate)
        int crossings = 0
        for (int i = a + 1; i < b; i++) {
            if ((samples[0][i - 1] < 0) != (samples[0][i] < 0)) crossings++
        }
        crossings / 2.0 / (to - from)
    }

    /** Amplitude of the {@code freq} Hz component of channel 0 over [from, to) seconds (Goertzel), for mixes of tones. */
    double amplitude(double freq, double from, double to) {
        int a = (int) (from * sampleRate)
        int b = (int) (to * sampleRate)
        double w = 2 * Math.PI * freq / sampleRate
        double k = 2 * Math.cos(w)
        double s1 = 0, s2 = 0
        for (int i = a; i < b; i++) {
            double s0 = floats[0][i] + k * s1 - s2
            s2 = s1
            s1 = s0
        }
        double re = s1 - s2 * Math.cos(w)
        double im = s2 * Math.sin(w)
        2 * Math.sqrt(re * re + im * im) / (b - a)
    }
}
