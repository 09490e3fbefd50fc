package org.groovecast.host.http;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.security.NoSuchAlgorithmException;
import java.security.cert.CertificateException;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import org.groovecast.api.ScriptException;

/**
 * The requests behind {@code http.get} and its siblings, on the JDK's HTTP client (HTTP/1.1, TLS
 * with the JDK's trust store). Every failure (a bad URL, a refused connection, a certificate not
 * trusted, no answer in time) is a {@link ScriptException} whose message says which, so that the
 * script can catch it; nothing is retried.
 */
final class HttpRequests {
    /** The largest body read; past it the call fails rather than fill the heap. */
    static final long MAX_BODY = 16L << 20;

    private static final String USER_AGENT = "Groovecast";

    private HttpRequests() {}

    /**
     * One client for each redirect policy, shared by every station of the process, on the JDK's
     * default TLS context: made again if that is replaced ({@link SSLContext#setDefault}, by an
     * embedder or a test).
     */
    private record Clients(SSLContext tls, HttpClient follow, HttpClient never) {
        static Clients on(SSLContext tls) {
            return new Clients(
                    tls,
                    client(tls, HttpClient.Redirect.NORMAL),
                    client(tls, HttpClient.Redirect.NEVER));
        }

        private static HttpClient client(SSLContext tls, HttpClient.Redirect redirect) {
            // HTTP/1.1 as Liquidsoap speaks it: no h2c upgrade headers that some servers refuse.
            return HttpClient.newBuilder()
                    .version(HttpClient.Version.HTTP_1_1)
                    .followRedirects(redirect)
                    .sslContext(tls)
                    .build();
        }
    }

    private static Clients clients;

    private static synchronized HttpClient client(boolean redirect) {
        SSLContext tls;
        try {
            tls = SSLContext.getDefault();
        } catch (NoSuchAlgorithmException e) {
            throw new ScriptException("no TLS in this JVM: " + e.getMessage());
        }
        if (clients == null || clients.tls() != tls) clients = Clients.on(tls);
        return redirect ? clients.follow() : clients.never();
    }

    /**
     * @param method GET, POST, PUT, HEAD or DELETE
     * @param data the body to send (UTF-8), or null for none
     * @param timeout seconds for the whole exchange, body included
     */
    static HttpResult send(
            String method,
            String url,
            Map<?, ?> headers,
            String data,
            double timeout,
            boolean redirect) {
        String call = "http." + method.toLowerCase(Locale.ROOT) + "('" + url + "')";
        if (!(timeout > 0) || Double.isInfinite(timeout))
            throw new ScriptException(call + ": timeout must be > 0 seconds, got " + timeout);
        URI uri = uri(call, url);
        HttpRequest.Builder request =
                HttpRequest.newBuilder(uri)
                        .timeout(Duration.ofNanos((long) (timeout * 1e9)))
                        .setHeader("User-Agent", USER_AGENT);
        for (Map.Entry<?, ?> h : headers.entrySet()) {
            try {
                request.setHeader(String.valueOf(h.getKey()), String.valueOf(h.getValue()));
            } catch (IllegalArgumentException e) {
                throw new ScriptException(call + ": header " + h.getKey() + ": " + e.getMessage());
            }
        }
        request.method(
                method,
                data == null
                        ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(data));
        CompletableFuture<HttpResponse<String>> answer =
                client(redirect).sendAsync(request.build(), LimitedBody.text(MAX_BODY));
        try {
            HttpResponse<String> r = answer.get((long) (timeout * 1e9), TimeUnit.NANOSECONDS);
            Map<String, String> names = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            r.headers()
                    .map()
                    .forEach(
                            (name, values) -> {
                                if (!name.startsWith(":"))
                                    names.put(name, String.join(", ", values));
                            });
            return new HttpResult(r.statusCode(), names, r.body());
        } catch (TimeoutException e) {
            answer.cancel(true);
            throw new HttpFailure(
                    HttpFailure.Kind.TIMEOUT,
                    call + ": no answer within " + seconds(timeout) + " s",
                    null);
        } catch (InterruptedException e) {
            answer.cancel(true);
            Thread.currentThread().interrupt();
            throw new ScriptException(call + ": interrupted (the station is stopping)");
        } catch (ExecutionException e) {
            String why = why(e.getCause(), uri, timeout);
            HttpFailure.Kind kind = kind(e.getCause());
            if (kind != null) throw new HttpFailure(kind, call + ": " + why, e.getCause());
            throw new ScriptException(call + ": " + why, e.getCause());
        }
    }

    private static URI uri(String call, String url) {
        URI uri;
        try {
            uri = new URI(url.strip());
        } catch (URISyntaxException e) {
            throw new ScriptException(
                    call + ": not a URL (" + e.getReason() + " at index " + e.getIndex() + ")");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new ScriptException(call + ": only http:// and https:// URLs can be requested");
        }
        if (uri.getHost() == null) throw new ScriptException(call + ": the URL names no host");
        return uri;
    }

    /**
     * What went wrong, for a station engineer: the most telling of the causes (a refused connection
     * may hide an unknown host).
     */
    private static String why(Throwable cause, URI uri, double timeout) {
        String where =
                uri.getHost()
                        + ":"
                        + (uri.getPort() > 0
                                ? uri.getPort()
                                : uri.getScheme().equalsIgnoreCase("https") ? 443 : 80);
        if (find(cause, HttpTimeoutException.class) != null)
            return "no answer within " + seconds(timeout) + " s";
        if (find(cause, UnknownHostException.class) != null
                || find(cause, UnresolvedAddressException.class) != null) {
            return "unknown host " + uri.getHost();
        }
        CertificateException cert = find(cause, CertificateException.class);
        if (cert != null) {
            return "TLS handshake with "
                    + where
                    + " failed: "
                    + (String.valueOf(cert.getMessage()).contains("PKIX")
                            ? "its certificate is not trusted by the JDK's trust store ("
                            : "its certificate was refused (")
                    + cert.getMessage()
                    + ")";
        }
        SSLException tls = find(cause, SSLException.class);
        if (tls != null) return "TLS handshake with " + where + " failed: " + tls.getMessage();
        if (find(cause, ConnectException.class) != null)
            return "cannot connect to " + where + " (connection refused)";
        if (cause instanceof IOException && cause.getMessage() != null) return cause.getMessage();
        return String.valueOf(cause);
    }

    /** Which of the failures a client reports as "no answer" {@code cause} is; null for others. */
    private static HttpFailure.Kind kind(Throwable cause) {
        if (find(cause, HttpTimeoutException.class) != null) return HttpFailure.Kind.TIMEOUT;
        if (find(cause, UnknownHostException.class) != null
                || find(cause, UnresolvedAddressException.class) != null
                || find(cause, ConnectException.class) != null) {
            return HttpFailure.Kind.UNREACHABLE;
        }
        if (find(cause, CertificateException.class) != null)
            return HttpFailure.Kind.TLS_CERTIFICATE;
        if (find(cause, SSLException.class) != null) return HttpFailure.Kind.TLS_HANDSHAKE;
        return null;
    }

    private static <T extends Throwable> T find(Throwable t, Class<T> type) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (type.isInstance(c)) return type.cast(c);
        }
        return null;
    }

    private static String seconds(double s) {
        return s == Math.rint(s) ? String.valueOf((long) s) : String.valueOf(s);
    }
}
