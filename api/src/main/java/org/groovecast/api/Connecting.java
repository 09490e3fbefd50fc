package org.groovecast.api;

/**
 * An output that streams to a peer over a connection it keeps up (an Icecast server, an RTMP
 * server, a URL): the station is ready ({@code /readyz}) only while each such output of an
 * infallible source is connected. An output that can be silent by design (a fallible source) is not
 * held to it.
 */
public interface Connecting {
    /** Whether the connection is up now. Read by the status port's threads: it must not block. */
    boolean isConnected();
}
