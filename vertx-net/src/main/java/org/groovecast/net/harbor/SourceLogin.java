package org.groovecast.net.harbor;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import java.net.InetAddress;
import org.groovecast.net.harbor.http.RequestHead;
import org.slf4j.Logger;

/**
 * A live input's login check as the harbor's source protocols share it (Icecast's {@code SOURCE}, a
 * Shoutcast password line, a browser DJ's hello, a title update): bounded by the input's auth
 * timeout, its outcome a {@link Verdict}, a refusal counted against the client's address, and one
 * line logged for each outcome but a yes; then the hand-over of an admitted client to the input.
 */
final class SourceLogin {
    /** How a login check went. */
    enum Verdict {
        YES,
        NO,
        TIMED_OUT,
        FAILED
    }

    private SourceLogin() {}

    /** How long {@code in}'s login check may take: its auth timeout, a second at least. */
    static long timeoutNanos(HarborIngest in) {
        return (long) (Math.max(1, in.authTimeout()) * 1e9);
    }

    /**
     * The verdict of a check's result, {@code yes} saying whether what it answered admits; a
     * refusal counts against {@code address}. Each verdict but YES is logged for {@code who} (the
     * client, as {@code browser DJ 192.0.2.7:51234}), a refusal with {@code why} ({@code bad
     * password}), on {@code log}, the connection's own.
     */
    static Verdict verdict(
            OffLoopCall.Result<?> r,
            boolean yes,
            HarborServer server,
            InetAddress address,
            HarborIngest in,
            Logger log,
            String who,
            String why) {
        return switch (r.outcome()) {
            case ANSWERED -> {
                if (yes) yield Verdict.YES;
                server.authFailures().failed(address, server.limits());
                log.warn("input.harbor {}: refused {} ({})", in.path(), who, why);
                yield Verdict.NO;
            }
            case TIMED_OUT -> {
                log.warn(
                        "input.harbor {}: its auth function did not answer within {} s; refused {}",
                        in.path(),
                        in.authTimeout(),
                        who);
                yield Verdict.TIMED_OUT;
            }
            case FAILED -> {
                log.warn(
                        "input.harbor {}: its auth function failed for {}: {}",
                        in.path(),
                        who,
                        r.error().toString());
                yield Verdict.FAILED;
            }
        };
    }

    /**
     * Hands an admitted source client to its live input, with the bytes of its stream that came
     * with its head ({@code rest}, whose ownership passes); returns the session, or null when the
     * input refused it (its answer written, the connection closing).
     */
    static HarborIngest.Session handOver(
            HarborIngest in,
            RequestHead head,
            ChannelHandlerContext ctx,
            String peer,
            Login login,
            ByteBuf rest) {
        HarborIngest.Session s;
        try {
            s = in.connect(head, ctx, peer, login);
        } catch (RuntimeException e) {
            rest.release();
            throw e;
        }
        if (s != null && rest.isReadable()) s.feed(rest);
        else rest.release();
        return s;
    }
}
