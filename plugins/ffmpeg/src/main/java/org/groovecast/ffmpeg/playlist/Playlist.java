package org.groovecast.ffmpeg.playlist;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;
import org.groovecast.api.RequestResolver;
import org.groovecast.api.ScriptException;
import org.groovecast.api.StreamContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tracks of a directory, a playlist file or a list, in order, shuffled per round or at random.
 * The list is read on the blocking pool when first needed, and read again after {@code reload}
 * seconds, after {@code reload} rounds, or when the file or directory changes ('watch').
 */
final class Playlist extends RequestSource {
    private static final Logger log = LoggerFactory.getLogger(Playlist.class);

    enum Mode {
        NORMAL,
        RANDOMIZE,
        RANDOM
    }

    enum ReloadMode {
        NEVER,
        SECONDS,
        ROUNDS,
        WATCH
    }

    private final Path where;
    private final List<String> given;
    private final Mode mode;
    private final ReloadMode reloadMode;
    private final double reload;
    private RandomGenerator random = new SplittableRandom();
    private List<Request> items;
    private int index;
    private int rounds;
    private long loadedAt;
    private FileTime watchedTime;

    Playlist(
            Path where,
            List<String> given,
            Mode mode,
            ReloadMode reloadMode,
            double reload,
            int prefetch,
            RequestResolver requests) {
        super("playlist", prefetch, requests);
        this.where = where;
        this.given = given;
        this.mode = mode;
        this.reloadMode = reloadMode;
        this.reload = reload;
    }

    static Mode mode(String s) {
        return switch (s) {
            case "normal" -> Mode.NORMAL;
            case "randomize" -> Mode.RANDOMIZE;
            case "random" -> Mode.RANDOM;
            default ->
                    throw new ScriptException(
                            "playlist(): mode must be 'randomize', 'normal' or 'random', got '"
                                    + s
                                    + "'");
        };
    }

    static ReloadMode reloadMode(String s) {
        return switch (s) {
            case "never" -> ReloadMode.NEVER;
            case "seconds" -> ReloadMode.SECONDS;
            case "rounds" -> ReloadMode.ROUNDS;
            case "watch" -> ReloadMode.WATCH;
            default ->
                    throw new ScriptException(
                            "playlist(): reloadMode must be 'never', 'seconds', 'rounds' or 'watch', got '"
                                    + s
                                    + "'");
        };
    }

    @Override
    protected void onPrepare(StreamContext context) {
        super.onPrepare(context);
        synchronized (this) {
            random = context.random();
        }
    }

    @Override
    protected synchronized Request next() {
        if (items == null || dueForReload()) load();
        if (items.isEmpty()) return null;
        if (mode == Mode.RANDOM) return items.get(random.nextInt(items.size()));
        if (index >= items.size()) {
            index = 0;
            rounds++;
            if (reloadMode == ReloadMode.ROUNDS && rounds >= Math.max(1, (int) reload)) {
                load();
                if (items.isEmpty()) return null;
            } else if (mode == Mode.RANDOMIZE) {
                Collections.shuffle(items, random);
            }
        }
        return items.get(index++);
    }

    @Override
    protected synchronized int attemptsPerRound() {
        return items == null ? 1 : Math.max(1, items.size());
    }

    @Override
    protected void adoptState(RequestSource previous) {
        Playlist p = (Playlist) previous;
        if (p.items != null && Objects.equals(p.where, where) && Objects.equals(p.given, given)) {
            items = p.items; // same list: go on from where it was
            index = p.index;
            rounds = p.rounds;
            loadedAt = p.loadedAt;
            watchedTime = p.watchedTime;
        }
    }

    private boolean dueForReload() {
        return switch (reloadMode) {
            case NEVER, ROUNDS -> false;
            case SECONDS -> reload > 0 && System.nanoTime() - loadedAt > (long) (reload * 1e9);
            case WATCH -> where != null && !Objects.equals(modified(), watchedTime);
        };
    }

    private void load() {
        List<Request> list;
        if (given != null) {
            list = new ArrayList<>(given.size());
            for (String uri : given) list.add(Request.of(uri));
        } else {
            try {
                list = PlaylistFiles.read(where);
            } catch (IOException e) {
                log.warn("{}: cannot read playlist {}: {}", id(), where, e.getMessage());
                list = List.of();
            }
        }
        items = new ArrayList<>(list);
        if (mode == Mode.RANDOMIZE) Collections.shuffle(items, random);
        index = 0;
        rounds = 0;
        loadedAt = System.nanoTime();
        watchedTime = where == null ? null : modified();
        log.debug("{}: {} tracks", id(), items.size());
    }

    private FileTime modified() {
        try {
            return Files.getLastModifiedTime(where);
        } catch (IOException e) {
            return null;
        }
    }
}
