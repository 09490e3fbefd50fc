package org.groovecast.host.cli;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code run --watch}: reloads when a watched file changes (the script; files it includes can be
 * added with {@link #watch}, in any directory). Editors save in bursts (a temp file, a rename, a
 * second write), so a change is acted on once the watched files were quiet for {@link #QUIET}. Only
 * the watched files' own events count: a log, a recording or a dump written next to the script all
 * the time neither delays a reload nor causes one.
 */
final class ScriptWatcher implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ScriptWatcher.class);
    static final Duration QUIET = Duration.ofMillis(250);

    private final WatchService service;
    private final Runnable reload;
    private final Duration quiet;
    private final Set<Path> files = ConcurrentHashMap.newKeySet();

    /**
     * The directories registered, by their key (a directory is registered once, whatever it holds).
     */
    private final Map<WatchKey, Path> directories = new ConcurrentHashMap<>();

    /**
     * Modification times at the last look, to tell whether an overflow (events lost) hid a change.
     */
    private final Map<Path, FileTime> stamps = new HashMap<>();

    private Thread thread;

    ScriptWatcher(Runnable reload, Duration quiet) throws IOException {
        this.service = FileSystems.getDefault().newWatchService();
        this.reload = reload;
        this.quiet = quiet;
    }

    /**
     * A watcher of {@code script}, to run {@code reload} after each change once {@link #start}ed
     * (until the process ends); the files the script includes are added with {@link #follow}. Null
     * if the system cannot watch it.
     */
    static ScriptWatcher of(Path script, Runnable reload) {
        try {
            ScriptWatcher w = new ScriptWatcher(reload, QUIET);
            w.watch(script);
            log.info("watching {} for changes", script.toAbsolutePath().normalize());
            return w;
        } catch (IOException e) {
            log.warn("cannot watch {}: {}", script, e.getMessage());
            return null;
        }
    }

    /**
     * Watches a file the script includes from now on, if not yet watched; logs rather than throws.
     */
    void follow(Path file) {
        Path f = file.toAbsolutePath().normalize();
        if (files.contains(f)) return;
        try {
            watch(f);
            log.info("watching {} (included) for changes", f);
        } catch (IOException e) {
            log.warn("cannot watch {}: {}", f, e.toString());
        }
    }

    /** Adds {@code file} to the watched ones (also while watching). */
    void watch(Path file) throws IOException {
        Path f = file.toAbsolutePath().normalize();
        Path dir = f.getParent();
        synchronized (this) {
            if (!directories.containsValue(dir)) {
                WatchKey key =
                        dir.register(
                                service,
                                StandardWatchEventKinds.ENTRY_MODIFY,
                                StandardWatchEventKinds.ENTRY_CREATE);
                directories.put(key, dir);
            }
            stamps.put(f, stamp(f));
        }
        files.add(f);
    }

    void start() {
        Path first = files.iterator().next();
        thread = Thread.ofVirtual().name("watch " + first.getFileName()).start(this::run);
    }

    private void run() {
        try {
            while (true) {
                Path changed = awaitChange(service.take());
                // A burst of the watched files' own events (an editor's save) is gathered first.
                long deadline = System.nanoTime() + quiet.toNanos();
                long left;
                while ((left = deadline - System.nanoTime()) > 0) {
                    WatchKey key = service.poll(left, TimeUnit.NANOSECONDS);
                    if (key != null && ours(key) != null)
                        deadline = System.nanoTime() + quiet.toNanos();
                }
                log.info("{} changed: reloading", changed.getFileName());
                reload.run();
            }
        } catch (InterruptedException | ClosedWatchServiceException e) {
            // stopping
        }
    }

    /** Waits, from {@code key} on, for an event of a watched file; returns that file. */
    private Path awaitChange(WatchKey key) throws InterruptedException {
        while (true) {
            Path f = ours(key);
            if (f != null) return f;
            key = service.take();
        }
    }

    /** The watched file among {@code key}'s events, or null if they were all about other files. */
    private Path ours(WatchKey key) {
        Path dir = directories.get(key);
        Path found = null;
        for (WatchEvent<?> e : key.pollEvents()) {
            if (dir == null) continue;
            if (e.kind() == StandardWatchEventKinds.OVERFLOW) {
                if (found == null) found = changedSinceLastLook(dir);
            } else if (found == null) {
                Path f = dir.resolve((Path) e.context());
                if (files.contains(f)) found = f;
            }
        }
        key.reset();
        if (found != null) stampAll();
        return found;
    }

    /** After lost events: a watched file of {@code dir} whose modification time moved, or null. */
    private synchronized Path changedSinceLastLook(Path dir) {
        for (Path f : files) {
            if (f.getParent().equals(dir) && !Objects.equals(stamps.get(f), stamp(f))) return f;
        }
        return null;
    }

    private synchronized void stampAll() {
        for (Path f : files) stamps.put(f, stamp(f));
    }

    private static FileTime stamp(Path f) {
        try {
            return Files.getLastModifiedTime(f);
        } catch (IOException e) {
            return null; // being replaced (an editor's rename): the next event tells
        }
    }

    @Override
    public void close() throws IOException {
        service.close();
        if (thread != null) thread.interrupt();
    }
}
