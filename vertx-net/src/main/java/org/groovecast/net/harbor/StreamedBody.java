package org.groovecast.net.harbor;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A reply body of unknown length (a script's {@link InputStream}: an event stream, a pipe) streamed
 * on a virtual thread, in direct style: read a chunk, write it, and while the socket's queue is
 * over its high-water mark park until the loop says it drained ({@link #wake}). Then the connection
 * is closed, since with no length the end of the body is the end of the connection.
 */
final class StreamedBody {
    /** The connection's lines under its own logger's name, which is what operators filter on. */
    private static final Logger log = LoggerFactory.getLogger(HarborConnection.class);

    private static final int CHUNK = 64 * 1024;

    /** The thread writing, while it runs; woken when the socket drains or closes. */
    private volatile Thread thread;

    private StreamedBody() {}

    /**
     * Starts streaming {@code in} (closed at its end) to {@code ch}, whose reply head is written
     * already.
     */
    static StreamedBody start(Channel ch, InputStream in, String peer) {
        StreamedBody s = new StreamedBody();
        Thread.ofVirtual().name("harbor reply " + peer).start(() -> s.run(ch, in, peer));
        return s;
    }

    /** The socket drained, or closed: the writer looks again. */
    void wake() {
        Thread t = thread;
        if (t != null) LockSupport.unpark(t);
    }

    private void run(Channel ch, InputStream in, String peer) {
        thread = Thread.currentThread();
        try (in) {
            while (ch.isActive()) {
                ByteBuf out = ch.alloc().buffer(CHUNK);
                int n;
                try {
                    n = out.writeBytes(in, CHUNK);
                } catch (IOException | RuntimeException e) {
                    out.release();
                    throw e;
                }
                if (n < 0) {
                    out.release();
                    break;
                }
                ch.writeAndFlush(out, ch.voidPromise());
                // Pending bytes of writes from this thread count at once, so this sees what was
                // just queued.
                while (!ch.isWritable() && ch.isActive())
                    LockSupport.parkNanos(this, TimeUnit.SECONDS.toNanos(1));
            }
        } catch (Exception e) {
            log.debug("harbor: streaming a response to {} ended: {}", peer, e.toString());
        } finally {
            thread = null;
            // Closed once everything written before has gone out; a connection closed already
            // (the station stopping closes its connections before its loops) needs nothing more.
            if (ch.isActive())
                ch.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        }
    }
}
