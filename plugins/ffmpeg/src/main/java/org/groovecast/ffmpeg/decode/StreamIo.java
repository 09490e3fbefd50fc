package org.groovecast.ffmpeg.decode;

import static org.bytedeco.ffmpeg.global.avformat.avformat_alloc_context;
import static org.bytedeco.ffmpeg.global.avformat.avio_alloc_context;
import static org.bytedeco.ffmpeg.global.avformat.avio_context_free;
import static org.bytedeco.ffmpeg.global.avutil.av_free;
import static org.bytedeco.ffmpeg.global.avutil.av_malloc;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.ConcurrentHashMap;
import org.bytedeco.ffmpeg.avformat.AVFormatContext;
import org.bytedeco.ffmpeg.avformat.AVIOContext;
import org.bytedeco.ffmpeg.avformat.Read_packet_Pointer_BytePointer_int;
import org.bytedeco.ffmpeg.avformat.Seek_Pointer_long_int;
import org.bytedeco.ffmpeg.avformat.Write_packet_Pointer_BytePointer_int;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.LongPointer;
import org.bytedeco.javacpp.Pointer;

/**
 * FFmpeg's custom input from a Java {@link InputStream} (a live connection): one static read
 * callback for every stream, which finds its stream by the address of the opaque cell, as {@link
 * ChannelIo} does for output. The format context it makes probes little (32 KiB, half a second), so
 * a live DJ is on air quickly.
 */
final class StreamIo implements AutoCloseable {
    private static final int BUFFER = 4096;
    private static final int AVERROR_EOF = -('E' | 'O' << 8 | 'F' << 16 | ' ' << 24);
    private static final int AVERROR_EIO = -5;
    private static final ConcurrentHashMap<Long, StreamIo> OPEN = new ConcurrentHashMap<>();
    static final Read READ = new Read();

    private final LongPointer opaque = new LongPointer(1);
    private final InputStream in;
    private final AVFormatContext context;
    private AVIOContext io;
    private byte[] scratch = new byte[BUFFER];

    StreamIo(InputStream in) {
        this.in = in;
        OPEN.put(opaque.address(), this);
        BytePointer buffer = new BytePointer(av_malloc(BUFFER));
        io =
                avio_alloc_context(
                        buffer,
                        BUFFER,
                        0,
                        opaque,
                        READ,
                        (Write_packet_Pointer_BytePointer_int) null,
                        (Seek_Pointer_long_int) null);
        context = avformat_alloc_context();
        context.pb(io);
        context.flags(context.flags() | AVFormatContext.AVFMT_FLAG_CUSTOM_IO);
        context.probesize(32 * 1024);
        context.max_analyze_duration(500_000);
    }

    AVFormatContext context() {
        return context;
    }

    @Override
    public void close() {
        OPEN.remove(opaque.address());
        if (io != null) {
            av_free(io.buffer()); // FFmpeg may have replaced the buffer: free the one it holds
            avio_context_free(io);
            io = null;
        }
        opaque.close();
    }

    static final class Read extends Read_packet_Pointer_BytePointer_int {
        @Override
        public int call(Pointer opaque, BytePointer buf, int size) {
            StreamIo s = OPEN.get(opaque.address());
            if (s == null) return AVERROR_EIO;
            try {
                if (s.scratch.length < size) s.scratch = new byte[size];
                int n = s.in.read(s.scratch, 0, size);
                if (n <= 0) return AVERROR_EOF;
                buf.position(0).put(s.scratch, 0, n);
                return n;
            } catch (IOException e) {
                return AVERROR_EIO;
            }
        }
    }
}
