package org.groovecast.core;

import static java.nio.charset.StandardCharsets.US_ASCII;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SeekableByteChannel;
import java.nio.channels.WritableByteChannel;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.Encoder;
import org.groovecast.api.Frame;

/**
 * PCM WAV, 16 or 24 bits. The header is written first with sizes that readers take as "until the
 * end", then rewritten with the real sizes on close when the channel can seek.
 *
 * <p>RIFF sizes are 32 bits, so a file stops fitting after 4 GiB (6.76 hours of 44.1 kHz 16-bit
 * stereo). As EBU Tech 3306 has it, and as {@code ffmpeg -rf64 auto} writes, a 28-byte JUNK chunk
 * follows the RIFF header, in the place and of the size of a ds64 chunk: a file that outgrew the
 * 32-bit sizes becomes RF64 at close (JUNK turned ds64 with the 64-bit sizes, 0xFFFFFFFF in the
 * 32-bit fields), a shorter one stays plain RIFF, which every reader takes.
 */
final class WavEncoder implements Encoder {
    /** RIFF, WAVE, the JUNK/ds64 chunk, fmt and the data chunk header. */
    static final int HEADER = 80;

    private static final int DS64 = 28;
    private static final long MAX_32 = 0xFFFFFFFFL;
    private final int bits;

    WavEncoder(int bits) {
        if (bits != 16 && bits != 24)
            throw new IllegalArgumentException("wav(): samplesize must be 16 or 24, got " + bits);
        this.bits = bits;
    }

    @Override
    public String name() {
        return "wav";
    }

    @Override
    public String extension() {
        return "wav";
    }

    @Override
    public Session open(AudioFormat format, WritableByteChannel out) throws IOException {
        return new WavSession(format, out);
    }

    /**
     * The header for {@code dataSize} bytes of samples (a pad byte follows an odd size), RF64 when
     * the file is too large for the 32-bit sizes; {@code dataSize} < 0 for "until the end".
     */
    static ByteBuffer header(AudioFormat format, int bits, long dataSize) {
        int blockAlign = format.channels() * (bits / 8);
        long riffSize = dataSize < 0 ? MAX_32 : HEADER - 8 + dataSize + (dataSize & 1);
        boolean rf64 = riffSize > MAX_32;
        ByteBuffer h = ByteBuffer.allocate(HEADER).order(ByteOrder.LITTLE_ENDIAN);
        h.put((rf64 ? "RF64" : "RIFF").getBytes(US_ASCII));
        h.putInt((int) (rf64 ? MAX_32 : riffSize));
        h.put("WAVE".getBytes(US_ASCII));
        h.put((rf64 ? "ds64" : "JUNK").getBytes(US_ASCII)).putInt(DS64);
        if (rf64) {
            h.putLong(riffSize)
                    .putLong(dataSize)
                    .putLong(dataSize / blockAlign)
                    .putInt(0); // no table
        } else {
            h.position(h.position() + DS64);
        }
        h.put("fmt ".getBytes(US_ASCII));
        h.putInt(16).putShort((short) 1).putShort((short) format.channels());
        h.putInt(format.sampleRate()).putInt(format.sampleRate() * blockAlign);
        h.putShort((short) blockAlign).putShort((short) bits);
        h.put("data".getBytes(US_ASCII));
        h.putInt((int) (rf64 ? MAX_32 : dataSize < 0 ? MAX_32 - (HEADER - 8) : dataSize));
        return h.flip();
    }

    private final class WavSession implements Session {
        private final AudioFormat format;
        private final WritableByteChannel out;
        private final int bytesPerSample = bits / 8;
        private ByteBuffer buffer = ByteBuffer.allocate(0);

        WavSession(AudioFormat format, WritableByteChannel out) throws IOException {
            this.format = format;
            this.out = out;
            writeFully(header(format, bits, -1));
        }

        @Override
        public void encode(Frame frame) throws IOException {
            int n = frame.position();
            int channels = format.channels();
            int need = n * channels * bytesPerSample;
            if (buffer.capacity() < need)
                buffer = ByteBuffer.allocate(need).order(ByteOrder.LITTLE_ENDIAN);
            buffer.clear();
            float[][] pcm = frame.pcm();
            for (int i = 0; i < n; i++) {
                for (int c = 0; c < channels; c++) {
                    float x = Math.max(-1f, Math.min(1f, pcm[c][i]));
                    if (bits == 16) {
                        buffer.putShort((short) Math.round(x * 32767f));
                    } else {
                        int v = Math.round(x * 8388607f);
                        buffer.put((byte) v).put((byte) (v >> 8)).put((byte) (v >> 16));
                    }
                }
            }
            buffer.flip();
            // One write per frame: a channel that drops a write it cannot make drops whole sample
            // frames.
            writeFully(buffer);
        }

        /**
         * The sizes come from where the channel ended, not from a count of bytes handed to it: a
         * file channel that lost writes to a full disk holds less than was encoded.
         */
        @Override
        public void close() throws IOException {
            if (out instanceof SeekableByteChannel seekable) {
                long end = seekable.position();
                long data = Math.max(0, end - HEADER);
                if ((data & 1) != 0)
                    writeFully(ByteBuffer.allocate(1)); // RIFF chunks are word-aligned
                long after = seekable.position();
                seekable.position(0);
                writeFully(header(format, bits, data));
                seekable.position(after);
            }
        }

        private void writeFully(ByteBuffer b) throws IOException {
            while (b.hasRemaining()) out.write(b);
        }
    }
}
