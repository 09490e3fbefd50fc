package org.groovecast.host.plugin;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.groovecast.host.script.ScriptFunctions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The plugins directory as a reloadable station sees it: loaded at start, and loaded again at a
 * reload when its contents changed ({@code groovecast plugins install} of a newer version), so the
 * reloaded script gets the new operators. Sets that were replaced stay loaded until the engine
 * exits: the station on air until the swap, and sockets kept across it, still run their classes.
 */
public final class PluginSet implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(PluginSet.class);

    private final Path dir;
    private final List<OperatorPlugins> replaced = new ArrayList<>();
    private OperatorPlugins current;
    private String contents;

    public PluginSet(Path dir) {
        this.dir = dir;
        this.current = OperatorPlugins.load(dir);
        this.contents = contents(dir); // after loading: PF4J unpacks zips into the directory
    }

    public synchronized OperatorPlugins current() {
        return current;
    }

    /**
     * The operators for a (re)load: the loaded ones, or the directory's new plugins if it changed
     * since.
     */
    public synchronized ScriptFunctions functions() {
        String now = contents(dir);
        if (!now.equals(contents)) {
            OperatorPlugins fresh = OperatorPlugins.load(dir);
            log.info(
                    "plugins directory {} changed: loaded {} plugin(s) for this reload",
                    dir,
                    fresh.plugins().size());
            replaced.add(current);
            current = fresh;
            contents = contents(dir);
        }
        return current.functions();
    }

    /**
     * Names, sizes and modification times of the directory's entries: what an install or remove
     * changes.
     */
    private static String contents(Path dir) {
        if (!Files.isDirectory(dir)) return "";
        StringBuilder b = new StringBuilder();
        try (Stream<Path> entries = Files.list(dir)) {
            for (Path p : entries.sorted().toList()) {
                b.append(p.getFileName()).append(' ');
                if (Files.isRegularFile(p))
                    b.append(Files.size(p))
                            .append(' ')
                            .append(Files.getLastModifiedTime(p).toMillis());
                b.append('\n');
            }
        } catch (IOException e) {
            return "unreadable: " + e.getMessage();
        }
        return b.toString();
    }

    @Override
    public synchronized void close() {
        for (OperatorPlugins p : replaced) p.close();
        current.close();
    }
}
