package org.groovecast.ffmpeg;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.concurrent.ConcurrentHashMap;
import org.bytedeco.ffmpeg.avformat.Seek_Pointer_long_int;
import org.bytedeco.ffmpeg.avformat.Write_packet_Pointer_BytePointer_int;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.LongPointer;
import org.bytedeco.javacpp.Pointer;

/**
 * FFmpeg's custom I/O onto Java channels. JavaCPP can make only a few native callback objects per
 * class, so there is one static write and one static seek callback for every muxer; each muxer is
 * registered under the address of a small native cell passed as FFmpeg's opaque pointer, and the
 * callbacks find its channel by that address.
 */
final class ChannelIo implements AutoCloseable {
    private static final int SEEK_SET = 0;
    private static final int SEEK_CUR = 1;
    private static final int SEEK_END = 2;
    private static final int AVSEEK_SIZE = 0x10000;
    private static final int AVERROR_EIO = -5;
    private static final ConcurrentHashMap<Long, ChannelIo> OPEN = new ConcurrentHashMap<>();
    static final Write WRITE = new Write();
    static final Seek SEEK = new Seek();

    private final LongPointer opaque = new LongPointer(1);
    private final WritableByteChannel channel;
    private IOException failure;

    ChannelIo(WritableByteChannel channel) {
        this.channel = channel;
        OPEN.put(opaque.address(), this);
    }

    Pointer opaque() {
        return opaque;
    }

    boolean seekable() {
        return channel instanceof SeekableByteChannel;
    }

    /** The first write error, if any: FFmpeg only sees an error code. */
    IOException failure() {
        return failure;
    }

    @Override
    public void close() {
        OPEN.remove(opaque.address());
        opaque.close();
    }

    static final class Write extends Write_packet_Pointer_BytePointer_int {
        @Override
        public int call(Pointer opaque, BytePointer buf, int size) {
            ChannelIo io = OPEN.get(opaque.address());
            if (io == null) return AVERROR_EIO;
            try {
                ByteBuffer b = buf.capacity(size).asByteBuffer();
                while (b.hasRemaining()) io.channel.write(b);
                return size;
            } catch (IOException e) {
                if (io.failure == null) io.failure = e;
                return AVERROR_EIO;
            }
        }
    }

    static final class Seek extends Seek_Pointer_long_int {
        @Override
        public long call(Pointer opaque, long offset, int whence) {
            ChannelIo io = OPEN.get(opaque.address());
            if (io == null || !(io.channel instanceof SeekableByteChannel s)) return AVERROR_EIO;
            try {
                return switch (whence & ~0x20000) { // AVSEEK_FORCE is only a hint
                    case AVSEEK_SIZE -> s.size();
                    case SEEK_SET -> s.position(offset).position();
                    case SEEK_CUR -> s.position(s.position() + offset).position();
                    case SEEK_END -> s.position(s.size() + offset).position();
                    default -> AVERROR_EIO;
                };
            } catch (IOException e) {
                return AVERROR_EIO;
            }
        }
    }
}
