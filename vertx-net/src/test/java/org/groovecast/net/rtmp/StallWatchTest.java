package org.groovecast.net.rtmp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The push client's stall detection, on an embedded channel whose clock the test moves. */
class StallWatchTest {
    private static final long TIMEOUT = 2000;

    /** A socket that takes writes ({@code stuck} false) or holds them all, never completing one. */
    static final class Socket extends ChannelOutboundHandlerAdapter {
        final List<ChannelPromise> held = new ArrayList<>();
        boolean stuck;

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            ReferenceCountUtil.release(msg);
            if (stuck) {
                held.add(promise);
            } else {
                promise.setSuccess();
            }
        }
    }

    private final Socket socket = new Socket();
    // the watch writes from the last handler's context, as the push client's NetSocket does:
    // through the socket
    private final EmbeddedChannel channel = new EmbeddedChannel(socket, new ChannelDuplexHandler());
    private final List<String> stalls = new ArrayList<>();
    private final StallWatch watch =
            new StallWatch(channel.pipeline().lastContext(), TIMEOUT, stalls::add);

    StallWatchTest() {
        channel.freezeTime();
        watch.start();
    }

    /**
     * Moves the clock in quarter timeouts, running what falls due, doing {@code each} at every
     * step.
     */
    private void passes(long millis, Runnable each) {
        for (long t = 0; t < millis; t += TIMEOUT / 4) {
            each.run();
            channel.advanceTimeBy(TIMEOUT / 4, TimeUnit.MILLISECONDS);
            channel.runScheduledPendingTasks();
        }
    }

    @Test
    void
            aServerThatAcknowledgesAndThenStopsIsNoticedAfterTheTimeoutThoughTheSocketStillTakesBytes() {
        passes(
                5000,
                () -> {
                    watch.wrote(100_000);
                    watch.acknowledged();
                });
        assertEquals(List.of(), stalls, "acknowledgements keep coming");
        // no more acknowledgements while more than twice the window goes out
        passes(TIMEOUT / 2, () -> watch.wrote(50_000));
        assertEquals(List.of(), stalls, "1.5 s since the last: not yet the timeout");
        passes(TIMEOUT / 4, () -> watch.wrote(50_000));
        assertEquals(
                List.of(
                        "the server stopped reading: no acknowledgement of the 150000 bytes sent for 2.0 s"),
                stalls);
        passes(10_000, () -> watch.wrote(50_000));
        assertEquals(1, stalls.size(), "told once");
    }

    @Test
    void anAcknowledgingServerThatGetsLittleIsNotStalled() {
        watch.acknowledged();
        // a quiet stream: under twice the window since the last acknowledgement
        passes(20_000, () -> watch.wrote(1000));
        assertEquals(List.of(), stalls);
    }

    @Test
    void aServerThatNeverAcknowledgesIsStalledWhenWritesStopGettingThrough() {
        passes(10_000, () -> watch.wrote(100_000));
        assertEquals(List.of(), stalls, "writes get through: fine without acknowledgements");
        socket.stuck = true;
        passes(TIMEOUT, () -> {});
        assertEquals(List.of(), stalls, "a probe is out, not yet for the timeout");
        passes(TIMEOUT, () -> {});
        assertEquals(
                List.of("the server stopped reading: nothing written got through for 2.0 s"),
                stalls);
    }

    @Test
    void slowWritesThatGetThroughWithinTheTimeoutAreNoStall() {
        socket.stuck = true;
        passes(
                20_000,
                () -> {
                    // what was held gets through a little later, each time
                    socket.held.forEach(ChannelPromise::setSuccess);
                    socket.held.clear();
                });
        assertEquals(List.of(), stalls);
    }

    @Test
    void aClosedChannelStopsTheWatch() {
        channel.close();
        socket.stuck = true;
        passes(10_000, () -> {});
        assertEquals(List.of(), stalls);
    }
}
