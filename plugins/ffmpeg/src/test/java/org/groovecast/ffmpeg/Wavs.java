package org.groovecast.ffmpeg;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

/** 16-bit stereo 44.1 kHz WAV files of silences and sines, written by the test itself. */
public final class Wavs {
    static final int RATE = 44_100;

    private Wavs() {}

    /**
     * A piece: {@code seconds} of a sine at {@code freq} Hz and peak {@code amplitude} (0:
     * silence).
     */
    public record Part(double seconds, double freq, double amplitude) {
        public static Part silence(double seconds) {
            return new Part(seconds, 0, 0);
        }

        public static Part tone(double seconds, double amplitude) {
            return new Part(seconds, 1000, amplitude);
        }
    }

    public static Path write(Path file, Part... parts) throws IOException {
        int samples = 0;
        for (Part p : parts) samples += (int) Math.round(p.seconds() * RATE);
        ByteBuffer b = ByteBuffer.allocate(44 + samples * 4).order(ByteOrder.LITTLE_ENDIAN);
        b.put("RIFF".getBytes()).putInt(36 + samples * 4).put("WAVE".getBytes());
        b.put("fmt ".getBytes()).putInt(16).putShort((short) 1).putShort((short) 2);
        b.putInt(RATE).putInt(RATE * 4).putShort((short) 4).putShort((short) 16);
        b.put("data".getBytes()).putInt(samples * 4);
        for (Part p : parts) {
            int n = (int) Math.round(p.seconds() * RATE);
            for (int i = 0; i < n; i++) {
                double v = p.amplitude() * Math.sin(2 * Math.PI * p.freq() * i / RATE);
                short s = (short) Math.round(v * 32767);
                b.putShort(s).putShort(s);
            }
        }
        Files.createDirectories(file.getParent());
        Files.write(file, b.array());
        return file;
    }
}
