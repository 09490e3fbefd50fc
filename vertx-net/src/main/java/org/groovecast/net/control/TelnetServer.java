package org.groovecast.net.control;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;
import org.groovecast.net.listening.ListeningServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The telnet control server on one port ({@code server.telnet(port: 1234)}): a line-based protocol
 * where each line is a command of {@link Commands} and each answer ends with a line {@code END}, as
 * Liquidsoap's. It listens on loopback unless told otherwise, since whoever reaches it controls the
 * station.
 */
public final class TelnetServer implements ListeningServer {
    private static final Logger log = LoggerFactory.getLogger(TelnetServer.class);

    private final int port;
    private final String bind;
    private final Commands commands;
    private NetServer server;

    public TelnetServer(int port, String bind, Commands commands) {
        this.port = port;
        this.bind = bind;
        this.commands = commands;
    }

    public int port() {
        return port;
    }

    public String bind() {
        return bind;
    }

    /** Binds the port; fails when it is taken. */
    public Future<NetServer> listen(Vertx vertx) {
        server =
                vertx.createNetServer(
                        new NetServerOptions().setPort(port).setHost(bind).setTcpNoDelay(true));
        server.connectHandler(socket -> new TelnetConnection(socket, commands));
        return server.listen()
                .onSuccess(s -> log.info("telnet: listening on {}:{}", bind, s.actualPort()));
    }

    @Override
    public String protocol() {
        return "telnet";
    }

    @Override
    public String bindAddress(String defaultBind) {
        return bind;
    }

    @Override
    public boolean isListening() {
        return server != null;
    }

    @Override
    public Future<?> listen(Vertx vertx, String defaultBind) {
        return listen(vertx);
    }

    /** Its commands are the script's: a reload's script brings its own server. */
    @Override
    public boolean carried() {
        return false;
    }

    /** The port actually bound (differs from {@link #port()} when that was 0). */
    public int actualPort() {
        return server == null ? port : server.actualPort();
    }

    /** Stops listening and closes the connections. */
    public Future<Void> close() {
        return server == null ? Future.succeededFuture() : server.close();
    }
}
