package org.groovecast.net.icecast;

import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetSocket;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.groovecast.net.harbor.http.ClientText;

/**
 * The Shoutcast v1 (ICY) source protocol, as {@code output.shoutcast} speaks it to a Shoutcast
 * server or to Icecast's shoutcast-compatible listen socket: the source connects to the server's
 * port + 1 (unless told another), sends its password on a line and waits for {@code OK2}, then
 * sends {@code icy-name:}, {@code icy-genre:}... lines and a blank one, and streams. Titles go to
 * the server's own port as {@code GET /admin.cgi?pass=...&mode=updinfo&song=...}. The rest (the
 * connection kept up, reconnections, the queue from the clock) is {@link IcecastClient}'s.
 *
 * @param sourcePort where the source connects: the server's port + 1 for a Shoutcast v1 server
 */
public record ShoutcastProtocol(int sourcePort) {
    /** Shoutcast DNAS answers title updates only to agents that say they are Mozilla compatible. */
    static final String USER_AGENT = "Groovecast (Mozilla compatible)";

    /**
     * The password line: the password alone, or {@code user:password} for a user other than {@code
     * source}.
     */
    static String passwordLine(IcecastTarget target) {
        String user = target.user();
        return user == null || user.isEmpty() || user.equals("source")
                ? target.password()
                : user + ":" + target.password();
    }

    /**
     * The header lines after {@code OK2}, as Shoutcast v1 servers and Icecast's compatible socket
     * read them.
     */
    static Map<String, String> headers(IcecastTarget target, int bitrate) {
        Map<String, String> h = new LinkedHashMap<>();
        h.put("content-type", target.contentType());
        h.put("icy-name", target.name());
        h.put("icy-genre", target.genre());
        h.put("icy-url", target.url());
        if (!target.description().isEmpty()) h.put("icy-description", target.description());
        h.put("icy-pub", target.isPublic() ? "1" : "0");
        if (bitrate > 0) h.put("icy-br", Integer.toString(bitrate));
        return h;
    }

    /**
     * Logs in and sends the stream's headers; throws with the reason when the server refuses.
     *
     * @param ended completes when the connection closes
     */
    void handshake(
            NetSocket s,
            io.vertx.core.Future<Void> ended,
            IcecastTarget target,
            int bitrate,
            long timeoutNanos,
            String seconds)
            throws Exception {
        Promise<String> answer = Promise.promise();
        ShoutcastAnswer reader = new ShoutcastAnswer();
        s.handler(
                b -> {
                    if (answer.future().isComplete())
                        return; // the server says nothing more while we stream
                    try {
                        String line = reader.feed(b);
                        if (line != null) answer.tryComplete(line);
                    } catch (IllegalStateException e) {
                        answer.tryFail(e.getMessage());
                    }
                });
        ended.onComplete(
                v ->
                        answer.tryFail(
                                "the server closed the connection after the password (wrong password?)"));
        s.write(
                Buffer.buffer(
                        (passwordLine(target) + "\r\n").getBytes(StandardCharsets.ISO_8859_1)));
        String line;
        try {
            line = answer.future().timeout(timeoutNanos, TimeUnit.NANOSECONDS).await();
        } catch (Exception e) { // Vert.x's timeout is a checked TimeoutException, thrown as is
            s.close();
            if (e instanceof java.util.concurrent.TimeoutException) {
                throw new IllegalStateException(
                        "the server did not answer the password within " + seconds + " s");
            }
            throw new IllegalStateException(e.getMessage());
        }
        if (!line.startsWith("OK")) {
            s.close();
            // The server's own words, quoted: they may hold anything, up to 1 KiB.
            throw new IllegalStateException(
                    "the server refused the source password (" + ClientText.quoted(line) + ")");
        }
        StringBuilder head = new StringBuilder();
        headers(target, bitrate)
                .forEach((k, v) -> head.append(k).append(':').append(v).append("\r\n"));
        head.append("\r\n");
        s.write(Buffer.buffer(head.toString().getBytes(StandardCharsets.ISO_8859_1)));
    }

    /** The title update, sent to the server's own port. */
    String metadataUri(IcecastTarget target, String song) {
        return "/admin.cgi?pass="
                + URLEncoder.encode(target.password(), StandardCharsets.UTF_8)
                + "&mode=updinfo&song="
                + URLEncoder.encode(song, StandardCharsets.UTF_8);
    }
}
