package org.groovecast.scripts

import java.nio.ByteBuffer
import java.nio.ByteOrder
import java.nio.file.Files
import java.nio.file.Path

/** Reads back the 16-bit PCM WAV files that output.file(wav()) writes, checking the header. */
final class Wav {
    int channels
    int sampleRate
    short[][] samples

    static Wav read(Path path) {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(path)).order(ByteOrder.LITTLE_ENDIAN)
        assert new String(bytes(b, 4), 'US-ASCII') == 'RIFF'
        int riffSize = b.getInt()
        assert riffSize == b.capacity() - 8: 'RIFF size must be fixed up on a clean stop'
        assert new String(bytes(b, 8), 'US-ASCII') == 'WAVEfmt '
        assert b.getInt() == 16
        assert b.getShort() == 1
        Wav w = new Wav(channels: b.getShort(), sampleRate: b.getInt())
        b.getInt(); b.getShort()
        assert b.getShort() == 16
        assert new String(bytes(b, 4), 'US-ASCII') == 'data'
        int dataSize = b.getInt()
        assert dataSize == b.remaining(): 'data size must be fixed up on a clean stop'
        int frames = dataSize.intdiv(2 * w.channels)
        w.samples = new short[w.channels][frames]
        for (int i = 0; i < frames; i++) {
            for (int c = 0; c < w.channels; c++) w.samples[c][i] = b.getShort()
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
}
