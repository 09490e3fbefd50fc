package org.groovecast.host.request;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import org.groovecast.api.Metadata;
import org.groovecast.api.TimeLimit;

/**
 * {@code http://} and {@code https://} requests: the file is downloaded to a temporary file
 * (deleted once played) on a virtual thread within the resolution's time, with the JDK's HTTP
 * client (redirects followed, TLS checked against the JDK's trust store), at most {@code
 * settings.request.maxDownload} bytes.
 */
final class HttpProtocol implements Protocol {
    private static final int BUFFER = 64 * 1024;

    private final LongSupplier maxBytes;
    private volatile HttpClient client;

    HttpProtocol(LongSupplier maxBytes) {
        this.maxBytes = maxBytes;
    }

    @Override
    public List<Step> resolve(String name, String arg, double secondsLeft) throws IOException {
        String url = name.toLowerCase(Locale.ROOT) + ":" + arg;
        URI uri;
        try {
            uri = URI.create(url);
        } catch (IllegalArgumentException e) {
            throw new IOException(url + ": not a valid URL: " + e.getMessage());
        }
        if (uri.getHost() == null) throw new IOException(url + ": not a valid URL: no host");
        Path file;
        try {
            file =
                    TimeLimit.call(
                            "download " + url,
                            secondsLeft,
                            () -> download(uri, secondsLeft),
                            HttpProtocol::delete);
        } catch (TimeoutException e) {
            throw new IOException(
                    url
                            + ": download not complete within "
                            + Resolution.seconds(secondsLeft)
                            + " s; abandoned");
        }
        return List.of(new Step(file.toString(), Metadata.EMPTY, true));
    }

    private Path download(URI uri, double seconds) throws IOException {
        Duration limit = Duration.ofNanos(Math.max(1, (long) (seconds * 1e9)));
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(limit).GET().build();
        HttpResponse<InputStream> response;
        try {
            response = client().send(request, HttpResponse.BodyHandlers.ofInputStream());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(uri + ": download interrupted");
        } catch (IOException e) {
            throw new IOException(uri + ": " + describe(e), e);
        }
        long max = maxBytes.getAsLong();
        try (InputStream body = response.body()) {
            if (response.statusCode() / 100 != 2)
                throw new IOException(uri + ": HTTP " + response.statusCode());
            OptionalLong declared = response.headers().firstValueAsLong("Content-Length");
            if (declared.isPresent() && declared.getAsLong() > max) {
                throw new IOException(
                        uri
                                + ": "
                                + declared.getAsLong()
                                + " bytes, over settings.request.maxDownload ("
                                + max
                                + ")");
            }
            Path file = Files.createTempFile("groovecast-", extension(uri));
            try {
                copy(body, file, max, uri);
                return file;
            } catch (IOException | RuntimeException e) {
                delete(file);
                throw e;
            }
        }
    }

    private static void copy(InputStream body, Path file, long max, URI uri) throws IOException {
        byte[] buffer = new byte[BUFFER];
        long total = 0;
        try (OutputStream out = Files.newOutputStream(file)) {
            for (int n; (n = body.read(buffer)) >= 0; ) {
                total += n;
                if (total > max)
                    throw new IOException(
                            uri + ": over settings.request.maxDownload (" + max + " bytes)");
                out.write(buffer, 0, n);
                if (Thread.currentThread().isInterrupted())
                    throw new IOException(uri + ": download abandoned");
            }
        } catch (IOException e) {
            if (e.getMessage() != null && e.getMessage().startsWith(uri.toString())) throw e;
            throw new IOException(uri + ": " + describe(e), e);
        }
    }

    /** The URL path's extension, so that the decoder's guess by name agrees with the content. */
    private static String extension(URI uri) {
        String path = uri.getPath() == null ? "" : uri.getPath();
        int slash = path.lastIndexOf('/');
        int dot = path.lastIndexOf('.');
        String ext = dot > slash && path.length() - dot <= 6 ? path.substring(dot) : "";
        return ext.matches("\\.[A-Za-z0-9]+") ? ext : ".tmp";
    }

    private HttpClient client() {
        HttpClient c = client;
        if (c == null) {
            synchronized (this) {
                c = client;
                if (c == null) {
                    // The request's own timeout and the resolution's limit bound each download;
                    // this only
                    // keeps an abandoned connection attempt from lingering.
                    c =
                            HttpClient.newBuilder()
                                    .followRedirects(HttpClient.Redirect.NORMAL)
                                    .connectTimeout(Duration.ofSeconds(30))
                                    .build();
                    client = c;
                }
            }
        }
        return c;
    }

    private static String describe(IOException e) {
        String m = e.getMessage();
        if (e instanceof java.net.ConnectException)
            return "cannot connect" + (m == null || m.isEmpty() ? "" : " (" + m + ")");
        if (e instanceof java.net.http.HttpTimeoutException) return "no answer in time";
        return m == null || m.isEmpty() ? e.getClass().getSimpleName() : m;
    }

    private static void delete(Path file) {
        Resolved.delete(List.of(file));
    }

    /** Stops the client's connections (the station stops). */
    void close() {
        HttpClient c = client;
        if (c != null) c.shutdownNow();
    }
}
