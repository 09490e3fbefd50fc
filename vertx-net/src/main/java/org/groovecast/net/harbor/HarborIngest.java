package org.groovecast.net.harbor;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import java.util.Map;

/**
 * A live input's side of the harbor: where Icecast source clients connect. The harbor checks the
 * client's credentials with {@link #login} off the event loop (it may run the script's code), then
 * hands the authorized request to {@link #connect} or {@link #adminMetadata} on the loop.
 */
public interface HarborIngest {
    /** The mount path, {@code /live}. */
    String path();

    /**
     * Whether the user and password may stream here (or set its title), and who the client is on
     * air; may block, never called on an event loop.
     */
    Login login(String user, String password);

    /**
     * The password line of a Shoutcast v1 (ICY) source client, which has no user: who it logs in
     * as; may block, never called on an event loop. A {@code user:password} line is the user and
     * password some clients send that way.
     */
    default Login icyLogin(String password) {
        int colon = password.indexOf(':');
        if (colon > 0) {
            Login split = login(password.substring(0, colon), password.substring(colon + 1));
            if (split.allowed()) return split;
        }
        return login("source", password);
    }

    /** Seconds {@link #login} may take before the client is refused. */
    double authTimeout();

    /**
     * A source client that {@code login} admitted sent its request head (on the connection's event
     * loop). Answers it: 403 or 503 with the reason, or the go-ahead; returns the session that takes
     * the stream, or null when refused (the answer is written and the connection closing).
     */
    Session connect(RequestHead head, ChannelHandlerContext ctx, String peer, Login login);

    /** An authorized {@code /admin/metadata} with {@code mode=updinfo&mount=...&song=...}: returns the status to answer. */
    int adminMetadata(Map<String, String> params);

    /** A connected source client. */
    interface Session {
        /** Bytes of the stream, in order, on the event loop; takes ownership of {@code data}. */
        void feed(ByteBuf data);

        /** The connection closed. */
        void disconnected();
    }
}
