package org.groovecast.host.script;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The files a station's script is made of: the script and what it includes. Each is compiled under
 * a name of its own, which its stack frames carry; this maps those names back to the names messages
 * show, so that a mistake made in an included file is reported at its own line.
 */
public final class ScriptFiles {
    private final String main;
    private final Map<String, String> names = new ConcurrentHashMap<>();
    private final List<Path> paths = new ArrayList<>();

    ScriptFiles(String main) {
        this.main = main;
    }

    /** The files of a script that includes nothing, named {@code main} in messages. */
    public static ScriptFiles single(String main) {
        ScriptFiles files = new ScriptFiles(main);
        files.add(ScriptLocation.compiledName(main), main, null);
        return files;
    }

    /**
     * The files of a script another front end read: {@code main} as messages name it, and the paths
     * of every file read, the script first.
     */
    public static ScriptFiles of(String main, java.util.List<Path> read) {
        ScriptFiles files = new ScriptFiles(main);
        for (Path p : read) files.add(p.getFileName().toString(), p.getFileName().toString(), p);
        files.names.putIfAbsent(main, main);
        return files;
    }

    /** The script's own name ({@code radio.groovy}). */
    public String main() {
        return main;
    }

    synchronized void add(String compiledName, String displayName, Path path) {
        names.put(compiledName, displayName);
        names.putIfAbsent(displayName, displayName); // a frame may carry the file's own name
        if (path != null && !paths.contains(path)) paths.add(path);
    }

    /**
     * The name messages show for a frame compiled from {@code compiledName}, or null for a frame of
     * no script.
     */
    String display(String compiledName) {
        return compiledName == null ? null : names.get(compiledName);
    }

    /**
     * The files read, the script first, as absolute paths (a script given as text has none of its
     * own).
     */
    public synchronized List<Path> paths() {
        return List.copyOf(paths);
    }
}
