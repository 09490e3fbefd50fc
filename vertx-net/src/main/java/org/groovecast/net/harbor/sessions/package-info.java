/**
 * Listeners once admitted: one session per listener (direct or HLS), the port's table of them, and
 * the access log line each writes when it ends.
 */
package org.groovecast.net.harbor.sessions;
