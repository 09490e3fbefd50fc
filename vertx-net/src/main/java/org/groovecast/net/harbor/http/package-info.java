/**
 * The harbor's HTTP codec, free of any connection: request heads and how they are read under the
 * port's limits, replies and their pre-encoded heads, routes, MIME types, the WebSocket handshake,
 * and the client address a request names behind trusted proxies.
 */
package org.groovecast.net.harbor.http;
