package org.groovecast.host.request;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.groovecast.api.Metadata;
import org.groovecast.api.RequestResolver;

/**
 * Resolving one request, as Liquidsoap does: a URI that names an existing file is that file;
 * otherwise {@code name:arg} goes to protocol {@code name}, whose answers are resolved in turn
 * (they are alternatives: the first that leads to a file the opener accepts wins). Metadata
 * accumulates down the chain, inner over outer; a temporary step makes everything it leads to
 * temporary.
 */
final class Resolution<T> {
    /** Protocols leading to protocols that deep are a loop (a protocol answering its own URI). */
    static final int MAX_DEPTH = 20;

    private static final Pattern PROTOCOL =
            Pattern.compile("([A-Za-z][A-Za-z0-9+._-]*):(.*)", Pattern.DOTALL);

    private final Protocols protocols;
    private final Path baseDir;
    private final double timeout;
    private final long deadline;
    private final RequestResolver.Opener<T> opener;
    private String problem;

    Resolution(
            Protocols protocols, Path baseDir, double timeout, RequestResolver.Opener<T> opener) {
        this.protocols = protocols;
        this.baseDir = baseDir;
        this.timeout = timeout;
        this.deadline = System.nanoTime() + (long) (timeout * 1e9);
        this.opener = opener;
    }

    T run(String uri) throws IOException {
        T t = walk(uri, Metadata.EMPTY, false, 0);
        if (t == null) throw new IOException(problem);
        return t;
    }

    /**
     * What {@code uri} leads to, opened; null (with {@link #problem} set) when nothing could be.
     */
    private T walk(String uri, Metadata metadata, boolean temporary, int depth) {
        if (depth > MAX_DEPTH)
            return fail(uri + ": more than " + MAX_DEPTH + " protocols deep, a loop?");
        Path local = existing(uri);
        if (local != null) return open(local.toString(), metadata, temporary);
        Matcher m = PROTOCOL.matcher(uri);
        if (m.matches()) {
            String name = m.group(1);
            Protocol p = protocols.find(name);
            if (p != null) return step(p, name, m.group(2), uri, metadata, temporary, depth);
            // scheme://... that no protocol of ours takes: FFmpeg may open it itself (rtsp, srt,
            // udp).
            if (!m.group(2).startsWith("//"))
                return fail(uri + ": no such file, and " + name + ": is no known protocol");
            return open(uri, metadata, false);
        }
        Path path = path(uri);
        return open(
                path != null ? path.toString() : uri,
                metadata,
                false); // missing: the opener says so
    }

    private T step(
            Protocol p,
            String name,
            String arg,
            String uri,
            Metadata metadata,
            boolean temporary,
            int depth) {
        double left = (deadline - System.nanoTime()) / 1e9;
        if (left <= 0)
            return fail(
                    uri + ": no time left of the " + seconds(timeout) + " s resolution timeout");
        List<Protocol.Step> next;
        try {
            next = p.resolve(name, arg, left);
        } catch (IOException e) {
            return fail(e.getMessage());
        }
        if (next.isEmpty()) return fail("protocol " + name + " found nothing for " + arg);
        for (int i = 0; i < next.size(); i++) {
            Protocol.Step s = next.get(i);
            boolean temp = temporary || s.temporary();
            T t = walk(s.uri(), metadata.with(s.metadata()), temp, depth + 1);
            if (t != null) {
                deleteUntried(next.subList(i + 1, next.size()), temporary);
                return t;
            }
        }
        return null;
    }

    private T open(String file, Metadata metadata, boolean temporary) {
        List<Path> temp = temporary ? List.of(Path.of(file)) : List.of();
        Resolved r = new Resolved(file, metadata, temp);
        try {
            return opener.open(r);
        } catch (IOException | RuntimeException e) {
            r.close();
            return fail(e.getMessage() != null ? e.getMessage() : e.toString());
        }
    }

    /**
     * Alternatives that were never tried are not played: their temporary files go now
     * (Liquidsoap's).
     */
    private void deleteUntried(List<Protocol.Step> untried, boolean temporary) {
        List<Path> files = new ArrayList<>();
        for (Protocol.Step s : untried) {
            Path p = temporary || s.temporary() ? existing(s.uri()) : null;
            if (p != null) files.add(p);
        }
        Resolved.delete(files);
    }

    /** The file {@code uri} names, relative ones under {@link #baseDir}, if it exists. */
    private Path existing(String uri) {
        Path p = path(uri);
        return p != null && Files.exists(p) ? p : null;
    }

    private Path path(String uri) {
        if (uri.isEmpty()) return null;
        try {
            Path p = Path.of(uri);
            return baseDir != null && !p.isAbsolute() ? baseDir.resolve(p).normalize() : p;
        } catch (InvalidPathException notAPath) {
            return null;
        }
    }

    private T fail(String why) {
        problem = why;
        return null;
    }

    static String seconds(double s) {
        return s == Math.rint(s) ? String.valueOf((long) s) : String.format(Locale.ROOT, "%.2f", s);
    }
}
