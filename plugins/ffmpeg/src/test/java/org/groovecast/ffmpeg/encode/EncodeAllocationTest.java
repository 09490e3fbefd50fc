package org.groovecast.ffmpeg.encode;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.ThreadMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.util.List;
import java.util.Map;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.Encoder;
import org.groovecast.api.Frame;
import org.groovecast.api.Metadata;
import org.groovecast.api.VideoFormat;
import org.junit.jupiter.api.Test;

/**
 * A live output encodes and flushes every tick: the codec's packets, the muxer's rescale and the
 * custom I/O's write to the channel allocate nothing of ours on the Java heap. What is left is
 * JavaCPP's: each call of FFmpeg's write callback wraps its two pointer arguments in new objects
 * (about 80 bytes), and FFmpeg calls it for each packet of a stream it cannot seek. The encoders
 * alone allocate nothing (VorbisAudioEncoderTest, LameAudioEncoderTest for theirs). Before the
 * cached time bases, frame planes, I/O view and unboxed lookup: 331 bytes a tick.
 */
class EncodeAllocationTest {
    private static final AudioFormat FORMAT = new AudioFormat(44_100, 2);

    @Test
    void encodingAndFlushingATickThroughFfmpegAllocatesNothing() throws IOException {
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (List<String> shape :
                List.of(
                        List.of("adts", "aac"),
                        List.of("ogg", "libopus"),
                        List.of("flac", "flac"))) {
            Sink out = new Sink();
            FfmpegEncoder e =
                    new FfmpegEncoder("x", shape.get(0), shape.get(1), Map.of(), Map.of(), 0)
                            .validate();
            try (Encoder.Session s = e.open(FORMAT, VideoFormat.DEFAULT, out, Metadata.EMPTY)) {
                Frame f = EncoderTest.sine(new Frame(FORMAT, 882), 0);
                for (int i = 0; i < 3000; i++) tick(s, f); // the JIT has compiled the path
                long before = threads.getCurrentThreadAllocatedBytes();
                long written = out.bytes;
                for (int i = 0; i < 1000; i++) tick(s, f);
                long allocated = threads.getCurrentThreadAllocatedBytes() - before;
                assertTrue(out.bytes > written, "bytes reached the channel " + shape);
                assertTrue(
                        allocated < 100 * 1000,
                        allocated + " bytes allocated in 1000 ticks " + shape);
            }
        }
    }

    private static void tick(Encoder.Session s, Frame f) throws IOException {
        s.encode(f);
        s.flush();
    }

    private static final class Sink implements WritableByteChannel {
        long bytes;

        @Override
        public int write(ByteBuffer b) {
            int n = b.remaining();
            b.position(b.limit());
            bytes += n;
            return n;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {}
    }
}
