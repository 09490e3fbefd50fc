package org.groovecast.net.harbor.files;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import org.groovecast.net.admission.AdmittedClients;
import org.groovecast.net.admission.MountAdmission;

/**
 * One {@code harbor.http.static} directory: which file a request path names, never one outside the
 * directory. The path was percent-decoded once by the request parser and is not decoded again
 * ({@code %252e%252e} names a file called {@code %2e%2e}); {@code ..} segments, backslashes and
 * absolute paths are refused outright, and a file reached through a symbolic link that leads out of
 * the directory is refused unless {@code settings.harbor.followSymlinks} allows it.
 */
public final class StaticFiles {
    /** A request the directory will not serve: its status and why. */
    public static final class Refused extends Exception {
        public final int status;

        Refused(int status, String message) {
            super(message, null, false, false);
            this.status = status;
        }
    }

    private final Path root;

    private final SmallFileCache cache = new SmallFileCache();

    /** The directory with its own links resolved, for comparing real paths. */
    private final Path realRoot;

    /** Who may fetch its files (an HLS directory's listeners), and its clients for the rules. */
    private final MountAdmission admission;

    private final AdmittedClients clients;

    StaticFiles(Path dir) {
        this(dir, MountAdmission.OPEN, new AdmittedClients());
    }

    /**
     * @param clients the clients present: a reload that keeps the directory keeps them, so that its
     *     cap and time limits go on
     */
    public StaticFiles(Path dir, MountAdmission admission, AdmittedClients clients) {
        this.admission = admission;
        this.clients = clients;
        this.root = dir.toAbsolutePath().normalize();
        Path real;
        try {
            real = root.toRealPath();
        } catch (IOException e) {
            real = root;
        }
        this.realRoot = real;
    }

    public Path root() {
        return root;
    }

    public MountAdmission admission() {
        return admission;
    }

    public AdmittedClients clients() {
        return clients;
    }

    /**
     * The file at {@code relative} as {@link #file} finds it, asked of the file system at most once
     * a second ({@link SmallFileCache}); null when there is none.
     */
    public StaticFile lookup(String relative, boolean followSymlinks) throws Refused {
        long now = System.nanoTime();
        StaticFile kept = cache.fresh(relative, followSymlinks, now);
        if (kept != null) return kept;
        Path f = file(relative, followSymlinks);
        if (f == null) {
            cache.forget(relative);
            return null;
        }
        return cache.refresh(relative, f, followSymlinks, now);
    }

    /**
     * The regular file at {@code relative} (the request path after the prefix and its slash), or
     * null when there is none; throws {@link Refused} for a path that tries to leave the directory.
     */
    Path file(String relative, boolean followSymlinks) throws Refused {
        if (relative.indexOf('\\') >= 0) throw new Refused(400, "backslash in a file path");
        if (relative.startsWith("/")) throw new Refused(400, "absolute file path");
        for (int at = 0; at <= relative.length(); ) {
            int end = relative.indexOf('/', at);
            if (end < 0) end = relative.length();
            if (end - at == 2 && relative.startsWith("..", at))
                throw new Refused(400, "'..' in a file path");
            at = end + 1;
        }
        Path f;
        try {
            f = root.resolve(relative).normalize();
        } catch (InvalidPathException e) {
            throw new Refused(400, "invalid file path");
        }
        if (!f.startsWith(root)) throw new Refused(400, "file path outside the directory");
        Path real;
        try {
            real = f.toRealPath();
        } catch (IOException e) {
            return null; // no such file, or one we may not read: not found either way
        }
        if (!followSymlinks && !real.startsWith(realRoot)) {
            throw new Refused(
                    403,
                    "a symbolic link out of the served directory (settings.harbor.followSymlinks allows it)");
        }
        return Files.isRegularFile(real) ? real : null;
    }
}
