package org.groovecast.net.harbor;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import java.util.Map;
import org.groovecast.net.harbor.http.RequestHead;

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
     * The password line of a Shoutcast v1 (ICY) source client, which has no user (also the {@code
     * pass} of its {@code admin.cgi} title update): who it logs in as; may block, never called on
     * an event loop.
     */
    Login icyLogin(String password);

    /** Seconds {@link #login} may take before the client is refused. */
    double authTimeout();

    /**
     * A source client that {@code login} admitted sent its request head (on the connection's event
     * loop). Answers it: 403 or 503 with the reason, or the go-ahead; returns the session that
     * takes the stream, or null when refused (the answer is written and the connection closing).
     */
    Session connect(RequestHead head, ChannelHandlerContext ctx, String peer, Login login);

    /**
     * A browser DJ ({@link WebcastConnection}) that {@code login} admitted: as {@link #connect},
     * with the stream's type from its hello and the answer given through {@code answer} (a
     * WebSocket's close frame rather than an HTTP status).
     */
    Session connect(
            RequestHead head,
            String contentType,
            ChannelHandlerContext ctx,
            String peer,
            Login login,
            Answer answer);

    /**
     * An authorized {@code /admin/metadata} with {@code mode=updinfo&mount=...&song=...}: returns
     * the status to answer.
     */
    int adminMetadata(Map<String, String> params);

    /** How a source client is answered, in its own protocol. */
    interface Answer {
        /** The go-ahead. */
        void accept();

        /**
         * Refused with an HTTP {@code status} (403: the mount is taken, 503: the station is not
         * running) and why; the connection closes.
         */
        void refuse(int status, String message);
    }

    /** A connected source client. */
    interface Session {
        /** Bytes of the stream, in order, on the event loop; takes ownership of {@code data}. */
        void feed(ByteBuf data);

        /**
         * Metadata the client sent beside its stream (a browser DJ's {@code metadata} message), on
         * the event loop; they go to whichever input the client feeds now (a reload moves it).
         */
        default void tags(Map<String, String> tags) {}

        /** The connection closed. */
        void disconnected();
    }
}
