package org.groovecast.host.cli;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code run --watch}: reloads when the script's file changes. Editors write in bursts (a temp
 * file, a rename, a second write), so changes are gathered for a quarter of a second first.
 */
final class ScriptWatcher {
    private static final Logger log = LoggerFactory.getLogger(ScriptWatcher.class);

    private ScriptWatcher() {
    }

    static void start(Path script, Runnable reload) {
        Path file = script.toAbsolutePath().normalize();
        Thread.ofVirtual().name("watch " + file.getFileName()).start(() -> {
            try (WatchService ws = FileSystems.getDefault().newWatchService()) {
                file.getParent().register(ws, StandardWatchEventKinds.ENTRY_MODIFY, StandardWatchEventKinds.ENTRY_CREATE);
                log.info("watching {} for changes", file);
                while (true) {
                    WatchKey key = ws.take();
                    boolean ours = false;
                    do {
                        for (WatchEvent<?> e : key.pollEvents()) {
                            if (file.getFileName().equals(e.context())) ours = true;
                        }
                        key.reset();
                        key = ws.poll(250, java.util.concurrent.TimeUnit.MILLISECONDS);
                    } while (key != null);
                    if (ours) {
                        log.info("{} changed: reloading", file.getFileName());
                        reload.run();
                    }
                }
            } catch (InterruptedException | ClosedWatchServiceException e) {
                // stopping
            } catch (IOException e) {
                log.warn("cannot watch {}: {}", file, e.getMessage());
            }
        });
    }
}
