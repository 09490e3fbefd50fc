package org.groovecast.ffmpeg.encode;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.Arrays;
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
 *
 * <p>A live output's muxer writes every tick, so the lookup and the write allocate nothing: the
 * open muxers are an array sorted by address (searched without boxing the address; rewritten only
 * when a muxer opens or closes), and each keeps one ByteBuffer view of FFmpeg's I/O buffer.
 */
final class ChannelIo implements AutoCloseable {
    private static final int SEEK_SET = 0;
    private static final int SEEK_CUR = 1;
    private static final int SEEK_END = 2;
    private static final int AVSEEK_SIZE = 0x10000;
    private static final int AVERROR_EIO = -5;
    private static volatile ChannelIo[] open = new ChannelIo[0];
    static final Write WRITE = new Write();
    static final Seek SEEK = new Seek();

    private final LongPointer opaque = new LongPointer(1);
    private final long address = opaque.address();
    private final WritableByteChannel channel;
    private IOException failure;

    /** A view of the buffer FFmpeg last wrote from (its I/O buffer: the same every time). */
    private ByteBuffer view;

    private long viewAddress;

    ChannelIo(WritableByteChannel channel) {
        this.channel = channel;
        register(this);
    }

    private static synchronized void register(ChannelIo io) {
        ChannelIo[] before = open;
        ChannelIo[] after = Arrays.copyOf(before, before.length + 1);
        int i = before.length;
        while (i > 0 && after[i - 1].address > io.address) {
            after[i] = after[i - 1];
            i--;
        }
        after[i] = io;
        open = after;
    }

    private static synchronized void unregister(ChannelIo io) {
        ChannelIo[] before = open;
        int i = indexOf(before, io.address);
        if (i < 0) return;
        ChannelIo[] after = new ChannelIo[before.length - 1];
        System.arraycopy(before, 0, after, 0, i);
        System.arraycopy(before, i + 1, after, i, before.length - i - 1);
        open = after;
    }

    private static int indexOf(ChannelIo[] all, long address) {
        int lo = 0, hi = all.length - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            long a = all[mid].address;
            if (a < address) lo = mid + 1;
            else if (a > address) hi = mid - 1;
            else return mid;
        }
        return -1;
    }

    /** The open muxer whose opaque cell is at {@code address}, or null. */
    private static ChannelIo find(long address) {
        ChannelIo[] all = open;
        int i = indexOf(all, address);
        return i < 0 ? null : all[i];
    }

    /** {@code size} bytes at {@code buf} as a buffer, made once for FFmpeg's I/O buffer. */
    private ByteBuffer bytes(BytePointer buf, int size) {
        long at = buf.address() + buf.position();
        if (view == null || at != viewAddress || size > view.capacity()) {
            view = buf.capacity(buf.position() + size).asByteBuffer();
            viewAddress = at;
        }
        view.clear().limit(size);
        return view;
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
        unregister(this);
        opaque.close();
    }

    static final class Write extends Write_packet_Pointer_BytePointer_int {
        @Override
        public int call(Pointer opaque, BytePointer buf, int size) {
            ChannelIo io = find(opaque.address());
            if (io == null) return AVERROR_EIO;
            try {
                ByteBuffer b = io.bytes(buf, size);
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
            ChannelIo io = find(opaque.address());
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
