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
 */
final class WavEncoder implements Encoder {
    private static final int HEADER = 44;
    private final int bits;

    WavEncoder(int bits) {
        if (bits != 16 && bits != 24) throw new IllegalArgumentException("wav(): samplesize must be 16 or 24, got " + bits);
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

    private final class WavSession implements Session {
        private final AudioFormat format;
        private final WritableByteChannel out;
        private final int bytesPerSample = bits / 8;
        private ByteBuffer buffer = ByteBuffer.allocate(0);
        private long dataBytes;

        WavSession(AudioFormat format, WritableByteChannel out) throws IOException {
            this.format = format;
            this.out = out;
            writeFully(header(0xFFFFFFFFL - HEADER + 8));
        }

        private ByteBuffer header(long dataSize) {
            int blockAlign = format.channels() * bytesPerSample;
            ByteBuffer h = ByteBuffer.allocate(HEADER).order(ByteOrder.LITTLE_ENDIAN);
            h.put("RIFF".getBytes(US_ASCII));
            h.putInt((int) Math.min(0xFFFFFFFFL, dataSize + HEADER - 8));
            h.put("WAVEfmt ".getBytes(US_ASCII));
            h.putInt(16).putShort((short) 1).putShort((short) format.channels());
            h.putInt(format.sampleRate()).putInt(format.sampleRate() * blockAlign);
            h.putShort((short) blockAlign).putShort((short) bits);
            h.put("data".getBytes(US_ASCII));
            h.putInt((int) Math.min(0xFFFFFFFFL, dataSize));
            return h.flip();
        }

        @Override
        public void encode(Frame frame) throws IOException {
            int n = frame.position();
            int channels = format.channels();
            int need = n * channels * bytesPerSample;
            if (buffer.capacity() < need) buffer = ByteBuffer.allocate(need).order(ByteOrder.LITTLE_ENDIAN);
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
            dataBytes += buffer.remaining();
            writeFully(buffer);
        }

        @Override
        public void close() throws IOException {
            if (out instanceof SeekableByteChannel seekable) {
                long end = seekable.position();
                seekable.position(0);
                writeFully(header(dataBytes));
                seekable.position(end);
            }
        }

        private void writeFully(ByteBuffer b) throws IOException {
            while (b.hasRemaining()) out.write(b);
        }
    }
}
