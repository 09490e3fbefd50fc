package org.groovecast.liquidsoap.engine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.groovecast.host.Station;
import org.groovecast.host.plugin.OperatorPlugins;
import org.groovecast.host.script.ScriptFunctions;
import org.groovecast.liquidsoap.prelude.Library;

/**
 * Test support: the function table of a station loaded with the plugins the distribution ships
 * (their archives as their modules built them, loaded as a station loads them), and the Liquidsoap
 * library a script of that station sees.
 */
public final class ShippedStation {
    private static final List<String> SHIPPED = List.of("core", "dsp", "ffmpeg", "transitions");
    private static ScriptFunctions functions;

    private ShippedStation() {}

    /** The engine's operators and the shipped plugins'. */
    public static synchronized ScriptFunctions functions() {
        if (functions == null) {
            try {
                Path dir = Files.createTempDirectory("liq-plugins");
                dir.toFile().deleteOnExit();
                for (String id : SHIPPED) {
                    Path built = built(id);
                    Path copy =
                            dir.resolve(id + (built.toString().endsWith(".zip") ? ".zip" : ".jar"));
                    Files.copy(built, copy, StandardCopyOption.REPLACE_EXISTING);
                    copy.toFile().deleteOnExit();
                }
                OperatorPlugins plugins = OperatorPlugins.load(dir);
                if (!plugins.problems().isEmpty())
                    throw new IllegalStateException("plugins: " + plugins.problems());
                functions = Station.functionTable(plugins.functions());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return functions;
    }

    /** The library (prelude and operators, with their types) a script of that station sees. */
    public static Library library() {
        return LiquidsoapScript.library("station.liq", functions());
    }

    /** The plugin archive of plugins/ID: the zip where it bundles libraries, else its jar. */
    private static Path built(String id) throws IOException {
        Path target = Path.of("..", "plugins", id, "target");
        try (Stream<Path> files = Files.list(target)) {
            return files.filter(
                            f -> f.getFileName().toString().startsWith("groovecast-plugin-" + id))
                    .filter(
                            f ->
                                    f.toString().endsWith("-plugin.zip")
                                            || f.toString()
                                                    .matches(".*-SNAPSHOT\\.jar|.*-[0-9.]+\\.jar"))
                    .min(Comparator.comparing(f -> !f.toString().endsWith(".zip")))
                    .orElseThrow(
                            () ->
                                    new IllegalStateException(
                                            "no built plugin in " + target + ": install it first"));
        } catch (NoSuchFileException e) {
            throw new IllegalStateException(target + " does not exist: install the plugins first");
        }
    }
}
