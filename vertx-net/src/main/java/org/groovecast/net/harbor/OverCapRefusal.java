package org.groovecast.net.harbor;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.socket.DuplexChannel;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.groovecast.net.harbor.clients.ConnectionCount;
import org.groovecast.net.harbor.http.Responses;

/**
 * A connection over the port's caps ({@code settings.harbor.maxConnections}, and per address): a
 * short 503 at once, then the connection goes, its request (if any) read and dropped meanwhile.
 */
final class OverCapRefusal {
    /**
     * How long a connection refused over a cap that sends nothing is kept for its 503 to be read;
     * one that sends its request is closed once that is read (closing with it unread would reset
     * the connection, and the 503 with it). Short, since a flood of refused connections holds its
     * descriptors that long.
     */
    private static final long LINGER_MS = 250;

    private OverCapRefusal() {}

    /**
     * Answers {@code c}'s client 503 for {@code why}; {@code c} is closed already as far as
     * requests go.
     */
    static void refuse(HarborConnection c, ConnectionCount.Admission why) {
        ChannelHandlerContext ctx = c.ctx();
        String text =
                why == ConnectionCount.Admission.PORT_FULL
                        ? "the server is at its connection limit"
                        : "too many connections from your address";
        ctx.writeAndFlush(
                        Responses.text(
                                ctx.alloc(),
                                "HTTP/1.0",
                                503,
                                text + "; try again later",
                                false,
                                Map.of("Retry-After", "5")))
                .addListener(
                        f -> {
                            // Half-close: the client reads the answer and its end; a reset now
                            // could destroy the 503.
                            if (f.isSuccess() && ctx.channel() instanceof DuplexChannel d) {
                                d.shutdownOutput();
                                c.refusalAnswered();
                            } else {
                                ctx.close();
                            }
                        });
        ctx.executor().schedule(c::close, LINGER_MS, TimeUnit.MILLISECONDS);
    }
}
