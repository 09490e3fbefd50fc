package org.groovecast.net.tls;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.FileRegion;
import io.netty.handler.stream.ChunkedInput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;

/**
 * Turns a file written with sendfile (a {@link FileRegion}) into chunks read into buffers, for a
 * {@link io.netty.handler.stream.ChunkedWriteHandler} in front of TLS, which must encrypt what it
 * sends; the file is still never read whole into memory.
 */
final class FileRegionChunks extends ChannelOutboundHandlerAdapter {
    private static final int CHUNK = 16 * 1024;

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        ctx.write(msg instanceof FileRegion r ? new Input(r) : msg, promise);
    }

    private static final class Input implements ChunkedInput<ByteBuf> {
        private final FileRegion region;
        private long done;

        Input(FileRegion region) {
            this.region = region;
        }

        @Override
        public boolean isEndOfInput() {
            return done >= region.count();
        }

        @Override
        public void close() {
            region.release();
        }

        @Override
        @Deprecated
        public ByteBuf readChunk(ChannelHandlerContext ctx) throws IOException {
            return readChunk(ctx.alloc());
        }

        @Override
        public ByteBuf readChunk(ByteBufAllocator alloc) throws IOException {
            if (isEndOfInput()) return null;
            int size = (int) Math.min(CHUNK, region.count() - done);
            ByteBuf chunk = alloc.buffer(size);
            try {
                // The region writes to a channel: this one takes what the chunk can hold and says
                // so,
                // which stops the transfer there.
                WritableByteChannel into =
                        new WritableByteChannel() {
                            @Override
                            public int write(ByteBuffer src) {
                                int n = Math.min(src.remaining(), chunk.writableBytes());
                                ByteBuffer part = src.slice(src.position(), n);
                                chunk.writeBytes(part);
                                src.position(src.position() + n);
                                return n;
                            }

                            @Override
                            public boolean isOpen() {
                                return true;
                            }

                            @Override
                            public void close() {}
                        };
                while (chunk.isWritable() && !isEndOfInput()) {
                    long n = region.transferTo(into, done);
                    if (n <= 0) break;
                    done += n;
                }
                if (chunk.readableBytes() == 0)
                    throw new IOException("the file ended before its " + region.count() + " bytes");
                return chunk;
            } catch (IOException | RuntimeException e) {
                chunk.release();
                throw e;
            }
        }

        @Override
        public long length() {
            return region.count();
        }

        @Override
        public long progress() {
            return done;
        }
    }
}
