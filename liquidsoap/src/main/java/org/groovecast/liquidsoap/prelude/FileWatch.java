package org.groovecast.liquidsoap.prelude;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.groovecast.liquidsoap.eval.Builtin;
import org.groovecast.liquidsoap.eval.Errors;
import org.groovecast.liquidsoap.eval.Fn;
import org.groovecast.liquidsoap.eval.LiqError;
import org.groovecast.liquidsoap.eval.Rec;
import org.groovecast.liquidsoap.eval.Tuple;

/**
 * {@code file.watch(path, f)}: {@code f} is called each time the file is written (created, modified
 * or replaced), on a virtual thread of the watcher's, never on a clock; the answer's {@code
 * unwatch()} ends the watch. One watch service per script, started with its first watch, watching
 * each directory once (the system's inotify), closed when the script stops.
 */
final class FileWatch {
    private final Platform platform;
    private final Map<Path, List<Watch>> byDirectory = new ConcurrentHashMap<>();
    private WatchService service;

    private record Watch(String name, Fn handler) {}

    private FileWatch(Platform platform) {
        this.platform = platform;
    }

    static void register(Library lib, Platform platform) {
        FileWatch watches = new FileWatch(platform);
        lib.function(
                "file.watch",
                "(string, () -> unit) -> unit.{unwatch : () -> unit}",
                "Calls the function each time the file is modified; unwatch() ends it.",
                a -> watches.watch(FileFunctions.path(a.string(0)), a.fn(1)));
    }

    private Object watch(Path file, Fn handler) {
        Path abs = file.toAbsolutePath().normalize();
        Path dir = abs.getParent();
        Watch w = new Watch(abs.getFileName().toString(), handler);
        try {
            synchronized (this) {
                if (service == null) {
                    service = FileSystems.getDefault().newWatchService();
                    Thread.ofVirtual().name("file.watch").start(this::loop);
                    WatchService closing = service;
                    platform.atStop(
                            () -> {
                                try {
                                    closing.close();
                                } catch (IOException e) {
                                    // closing: nothing more to watch either way
                                }
                            });
                }
                if (!byDirectory.containsKey(dir)) {
                    dir.register(
                            service,
                            StandardWatchEventKinds.ENTRY_CREATE,
                            StandardWatchEventKinds.ENTRY_MODIFY);
                }
                byDirectory.computeIfAbsent(dir, d -> new CopyOnWriteArrayList<>()).add(w);
            }
        } catch (IOException e) {
            throw Errors.of("file", "file.watch: cannot watch " + file + ": " + e.getMessage());
        }
        Builtin unwatch =
                Builtin.of(
                        "file.unwatch",
                        List.of(),
                        x -> {
                            List<Watch> l = byDirectory.get(dir);
                            if (l != null) l.remove(w);
                            return Tuple.UNIT;
                        });
        return Rec.with(Tuple.UNIT, "unwatch", unwatch);
    }

    private void loop() {
        WatchService s;
        synchronized (this) {
            s = service;
        }
        while (true) {
            WatchKey key;
            try {
                key = s.take();
            } catch (InterruptedException | ClosedWatchServiceException e) {
                return;
            }
            Path dir = (Path) key.watchable();
            for (WatchEvent<?> event : key.pollEvents()) {
                if (!(event.context() instanceof Path changed)) continue;
                for (Watch w : byDirectory.getOrDefault(dir, List.of())) {
                    if (w.name.equals(changed.toString())) call(w);
                }
            }
            key.reset();
        }
    }

    private void call(Watch w) {
        try {
            w.handler.call();
        } catch (LiqError e) {
            platform.log(
                    "file.watch", 2, "the handler of " + w.name + " failed: " + e.getMessage());
        }
    }
}
