package org.groovecast.net.listening;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.Map;

/**
 * What a station listens with on a port: the harbor, the RTMP server, the telnet control, and the
 * protocols to come. {@code Network} binds, reloads and closes them all alike, and the engine shows
 * their figures without knowing which protocol they speak: a new protocol is a package with a class
 * implementing this, and the call that declares it, {@code Network.declare} (CONTRIBUTING.md, "Add
 * a listening protocol").
 *
 * <p>A reload is a transaction over every server ({@link #beginLoad}, then {@link #commitLoad} or
 * {@link #abortLoad}): the script being loaded declares what it serves without serving it yet, and
 * a script that fails leaves what is served as it was. A server is carried across the reload with
 * its connections ({@link #carried}), or, like the telnet control whose commands are the script's,
 * replaced by the new script's own.
 */
public interface ListeningServer {
    /** The protocol's name, as logs, the status page and metrics give it: {@code rtmp}. */
    String protocol();

    /** The port the script named (0: any free one). */
    int port();

    /** The port bound (differs from {@link #port()} when that was 0). */
    int actualPort();

    boolean isListening();

    /** The address it binds: its own, or {@code defaultBind} (settings.harbor.bind). */
    default String bindAddress(String defaultBind) {
        return defaultBind;
    }

    /**
     * Binds what its declarations need and is not bound yet: its port; for a server listening
     * already, what a reload's declarations added (the harbor's Shoutcast port). {@code
     * defaultBind} is {@code settings.harbor.bind}, for a server the script gave no address of its
     * own. Fails when a port is taken.
     */
    Future<?> listen(Vertx vertx, String defaultBind);

    /** Whether {@link #listen} has anything to bind. */
    default boolean needsBinding() {
        return !isListening();
    }

    /**
     * Undoes what {@link #listen} bound on a server that was listening before it: a reload whose
     * other ports could not all be bound. (A server that was not listening is closed instead.)
     */
    default Future<Void> unlisten() {
        return Future.succeededFuture();
    }

    /** Stops listening and closes its connections. */
    Future<Void> close();

    // ---------------------------------------------------------------- the reload transaction

    /**
     * Whether a reload keeps this server and its connections, the new script's declarations taking
     * the old one's place (false: the new script's own server replaces it).
     */
    default boolean carried() {
        return true;
    }

    /** A script is about to be loaded: what it declares from now on is recorded, not served. */
    default void beginLoad() {}

    /**
     * Whether a reload keeps it even when the new script does not declare it (the harbor: its port
     * stays bound); otherwise a carried server the reloaded script no longer declares is closed
     * when that script takes over.
     */
    default boolean keptWhenUndeclared() {
        return false;
    }

    /**
     * Whether the script being loaded has it serve anything (a relay script needs no output); asked
     * of the servers that script declares.
     */
    default boolean servesAnything() {
        return true;
    }

    /** The script failed to load: what is served stays, and is what the next load starts from. */
    default void abortLoad() {}

    /**
     * Lets go of a server only a script that failed to load declared (it was never bound): on a
     * port several stations share, that station's claim.
     */
    default void discard() {}

    /**
     * The loaded script's declarations take effect; returns what kept its connections as the
     * reload's report lists it ({@code rtmp :1935}: its publishers and players stayed), or nothing.
     */
    default List<String> commitLoad() {
        return List.of();
    }

    // ---------------------------------------------------------------- readings

    /**
     * Tells {@code readings} its figures, each a metric {@code groovecast_<protocol>_<name>}
     * labelled with its port (and the station) and the labels given.
     */
    default void readings(Readings readings) {}

    /**
     * What the status page lists of it, under its protocol's name; null: nothing. {@code detailed}:
     * whether names that grant access (an RTMP stream key) may show whole.
     */
    default Map<String, Object> status(boolean detailed) {
        return null;
    }

    /** Where a server's figures go. */
    @FunctionalInterface
    interface Readings {
        /**
         * One figure: {@code name} (e.g. {@code publishers}), what it counts, its value, and labels
         * beyond the port as name, value pairs.
         */
        void reading(String name, String help, double value, String... labels);
    }
}
