package org.groovecast.net;

import static org.groovecast.api.ValueType.ANY;
import static org.groovecast.api.ValueType.BOOLEAN;
import static org.groovecast.api.ValueType.ENCODER;
import static org.groovecast.api.ValueType.FUNCTION;
import static org.groovecast.api.ValueType.INTEGER;
import static org.groovecast.api.ValueType.NUMBER;
import static org.groovecast.api.ValueType.OUTPUT;
import static org.groovecast.api.ValueType.SOURCE;
import static org.groovecast.api.ValueType.STRING;

import java.util.List;
import org.groovecast.api.Arguments;
import org.groovecast.api.LiveDecoder;
import org.groovecast.api.OperatorSpec;
import org.groovecast.api.ScriptException;
import org.groovecast.api.UserFunction;
import org.groovecast.net.rtmp.RtmpInput;
import org.groovecast.net.rtmp.RtmpPushClient;
import org.groovecast.net.rtmp.RtmpPushOutput;
import org.groovecast.net.rtmp.RtmpServer;

/** The script functions of RTMP: the server (relay) and live RTMP sources. */
public final class RtmpOperators {
    private RtmpOperators() {}

    public static List<OperatorSpec> specs(Network net, LiveDecoder decoder) {
        return List.of(
                OperatorSpec.named("rtmp.server")
                        .doc(
                                "An RTMP server: publishers (OBS, ffmpeg) push rtmp://host:port/app/key, players read it back.")
                        .named("port", INTEGER, 1935, "the port")
                        .range(0, 65535)
                        .named("bind", STRING, "0.0.0.0", "the address to listen on")
                        .named(
                                "onPublish",
                                FUNCTION,
                                null,
                                "{ app, key, params -> bool }: who may publish")
                        .calls("the app", "the stream key", "the query parameters")
                        .named(
                                "onPlay",
                                FUNCTION,
                                null,
                                "{ app, key, params -> bool }: who may play")
                        .calls("the app", "the stream key", "the query parameters")
                        .named(
                                "maxMessage",
                                INTEGER,
                                8 << 20,
                                "largest message accepted, in bytes; past it the session closes")
                        .named(
                                "maxPending",
                                INTEGER,
                                null,
                                "bytes a connection's incomplete messages may hold together "
                                        + "(twice maxMessage by default); past it the session closes")
                        .named(
                                "maxPendingTotal",
                                INTEGER,
                                256 << 20,
                                "bytes the incomplete messages of all connections "
                                        + "may hold together; the session that would go past it closes")
                        .named(
                                "idleTimeout",
                                NUMBER,
                                30.0,
                                "seconds a connection may neither publish nor play, or publish "
                                        + "nothing, before it is closed (0: never)")
                        .named(
                                "handshakeTimeout",
                                NUMBER,
                                10.0,
                                "seconds a connection has to complete the handshake")
                        .named(
                                "slowTimeout",
                                NUMBER,
                                10.0,
                                "seconds a player may stay too slow (frames dropped) before it is disconnected")
                        .named(
                                "playerBuffer",
                                INTEGER,
                                8 << 20,
                                "bytes a player may fall behind before its non-key frames are dropped")
                        .named(
                                "chunkSize",
                                INTEGER,
                                RtmpServer.Limits.DEFAULT_CHUNK_SIZE,
                                "the chunk size sent to clients "
                                        + "(128 to 16777215): larger means fewer headers and writes per message")
                        .named(
                                "eventLoops",
                                INTEGER,
                                1,
                                "1: every connection on one event loop, so that a publisher's "
                                        + "messages reach its players without crossing threads (as nginx-rtmp's one "
                                        + "worker); 0: spread over all of settings.harbor.eventLoops, for a relay "
                                        + "beyond one core. Read when the port starts listening")
                        .named(
                                "playWaitTimeout",
                                NUMBER,
                                30.0,
                                "seconds a player may wait for its key's publisher (counted "
                                        + "while nobody publishes it) before it gets StreamNotFound and is closed (0: never)")
                        .named(
                                "maxWaitingPlayers",
                                INTEGER,
                                256,
                                "players that may wait for a key nobody publishes at once; "
                                        + "past it a player asking for one gets StreamNotFound at once (0: nobody waits)")
                        .method(
                                "onPublish",
                                "server.onPublish { app, key, params -> bool }: who may publish")
                        .method(
                                "onPlay",
                                "server.onPlay { app, key, params -> bool }: who may play")
                        .returns(ANY)
                        .create(a -> server(net, a)),
                OperatorSpec.named("input.rtmp")
                        .doc(
                                "A stream published to this engine's RTMP server (audio, and video): available while the publisher streams.")
                        .requiredNamed(
                                "app", STRING, "the application: 'live' for rtmp://host/live/key")
                        .requiredNamed("key", STRING, "the stream key")
                        .named(
                                "port",
                                INTEGER,
                                1935,
                                "the RTMP server's port (rtmp.server on it is implied)")
                        .range(0, 65535)
                        .named(
                                "buffer",
                                NUMBER,
                                1.0,
                                "seconds decoded before the source becomes available")
                        .named("max", NUMBER, 10.0, "seconds kept at most")
                        .named(
                                "video",
                                BOOLEAN,
                                true,
                                "decode the stream's video into the graph's pictures too (when it has some)")
                        .returns(SOURCE)
                        .create(
                                a -> {
                                    if (decoder == null) {
                                        throw new ScriptException(
                                                "input.rtmp() needs a live decoder, which the ffmpeg plugin provides; "
                                                        + "it is not installed");
                                    }
                                    RtmpServer server = declared(net, a.integer("port"), null);
                                    return new RtmpInput(
                                            server,
                                            a.string("app"),
                                            a.string("key"),
                                            decoder,
                                            a.number("buffer"),
                                            a.number("max"),
                                            a.bool("video"));
                                }),
                OperatorSpec.named("output.rtmp")
                        .doc(
                                "Pushes the stream to an RTMP server (nginx-rtmp, YouTube, this engine), reconnecting with backoff.")
                        .positional(
                                "url",
                                STRING,
                                "rtmp://host[:port]/app/key, or rtmps://host[:port]/app/key over TLS")
                        .positional(
                                "encoder",
                                ENCODER,
                                "an FLV encoder: ffmpeg(format: 'flv', audio: [codec: 'aac'], video: [...])")
                        .positional("source", SOURCE, "the source")
                        .named(
                                "onError",
                                FUNCTION,
                                null,
                                "{ error -> seconds } before reconnecting; backoff 1 s to 30 s by default")
                        .calls("the error message")
                        .named(
                                "timeout",
                                NUMBER,
                                10.0,
                                "seconds the server may take to answer, or to take what is sent, "
                                        + "before the connection is dropped and made again")
                        .named(
                                "fallible",
                                BOOLEAN,
                                false,
                                "accept a source that may become unavailable")
                        .named(
                                "tlsTrust",
                                STRING,
                                "",
                                "for rtmps://: a PEM file of certificates trusted besides the JVM's")
                        .named(
                                "tlsVerify",
                                BOOLEAN,
                                true,
                                "for rtmps://: check the server's certificate; false takes any")
                        .returns(OUTPUT)
                        .create(a -> push(net, a)));
    }

    private static RtmpPushOutput push(Network net, Arguments a) {
        UserFunction onError = a.function("onError");
        RtmpPushClient client;
        try {
            String url = a.string("url");
            client =
                    new RtmpPushClient(
                            url,
                            url.regionMatches(true, 0, "rtmps:", 0, 6)
                                    ? org.groovecast.net.tls.ClientTls.options("output.rtmp", a)
                                    : null,
                            onError == null
                                    ? null
                                    : e -> {
                                        Object r = onError.call(e.getMessage());
                                        return r instanceof Number n ? n.doubleValue() : 5;
                                    },
                            (long) (a.number("timeout") * 1000));
        } catch (IllegalArgumentException e) {
            throw new ScriptException("output.rtmp(): " + e.getMessage());
        }
        return new RtmpPushOutput(
                a.encoder("encoder"), client, net::vertx, a.source("source"), a.bool("fallible"));
    }

    private static RtmpServer server(Network net, Arguments a) {
        int maxMessage = a.integer("maxMessage");
        long maxPending = a.given("maxPending") ? a.integer("maxPending") : 2L * maxMessage;
        if (maxPending < maxMessage) {
            throw new ScriptException(
                    "rtmp.server(): maxPending "
                            + maxPending
                            + " is less than maxMessage "
                            + maxMessage
                            + ": a message that long could never arrive");
        }
        if (a.integer("maxPendingTotal") < maxPending) {
            throw new ScriptException(
                    "rtmp.server(): maxPendingTotal "
                            + a.integer("maxPendingTotal")
                            + " is less than maxPending "
                            + maxPending);
        }
        int chunkSize = a.integer("chunkSize");
        if (chunkSize < 128 || chunkSize > 0xFFFFFF) {
            throw new ScriptException(
                    "rtmp.server(): chunkSize " + chunkSize + " is outside 128..16777215");
        }
        if (a.number("idleTimeout") < 0) {
            throw new ScriptException(
                    "rtmp.server(): idleTimeout " + a.number("idleTimeout") + " is negative");
        }
        if (a.number("playWaitTimeout") < 0) {
            throw new ScriptException(
                    "rtmp.server(): playWaitTimeout "
                            + a.number("playWaitTimeout")
                            + " is negative");
        }
        if (a.integer("maxWaitingPlayers") < 0) {
            throw new ScriptException(
                    "rtmp.server(): maxWaitingPlayers "
                            + a.integer("maxWaitingPlayers")
                            + " is negative");
        }
        int loops = a.integer("eventLoops");
        if (loops != 0 && loops != 1) {
            throw new ScriptException(
                    "rtmp.server(): eventLoops "
                            + loops
                            + " is neither 1 (one event loop) nor 0 (all the harbor's)");
        }
        RtmpServer s = declared(net, a.integer("port"), a.string("bind"));
        s.oneLoop(loops == 1);
        s.limits(
                new RtmpServer.Limits(
                        maxMessage,
                        RtmpServer.Limits.DEFAULT.maxChunkStreamId(),
                        (long) (a.number("handshakeTimeout") * 1000),
                        (long) (a.number("slowTimeout") * 1000),
                        RtmpServer.Limits.DEFAULT.queueMessages(),
                        a.integer("playerBuffer"),
                        maxPending,
                        a.integer("maxPendingTotal"),
                        (long) (a.number("idleTimeout") * 1000),
                        chunkSize,
                        (long) (a.number("playWaitTimeout") * 1000),
                        a.integer("maxWaitingPlayers")));
        s.onPublish(check(a.function("onPublish")));
        s.onPlay(check(a.function("onPlay")));
        return s;
    }

    private static RtmpServer declared(Network net, int port, String bind) {
        try {
            return net.rtmp(
                    port,
                    bind != null
                            ? bind
                            : net.rtmpServers().stream()
                                    .filter(r -> r.port() == port)
                                    .map(RtmpServer::bind)
                                    .findFirst()
                                    .orElse("0.0.0.0"));
        } catch (IllegalArgumentException e) {
            throw new ScriptException("rtmp.server(): " + e.getMessage());
        }
    }

    private static RtmpServer.Check check(UserFunction f) {
        return f == null ? null : (app, key, params) -> f.test(app, key, params);
    }
}
