package org.groovecast.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Stream;
import org.groovecast.host.plugin.OperatorPlugins;

/**
 * The plugins the distribution ships, loaded from what their modules built (they build before the
 * host) exactly as a station loads them: their operators and their settings are declared under
 * their plugin ids, so the generated references list what an installed engine has.
 */
final class ShippedPlugins {
    static final List<String> SHIPPED = List.of("core", "dsp", "ffmpeg", "transitions");

    private ShippedPlugins() {}

    /** Copies the shipped plugins into {@code dir} and loads them; close what it returns. */
    static OperatorPlugins load(Path dir) throws IOException {
        for (String id : SHIPPED) {
            Path built = built(id);
            Files.copy(
                    built,
                    dir.resolve(id + (built.toString().endsWith(".zip") ? ".zip" : ".jar")),
                    StandardCopyOption.REPLACE_EXISTING);
        }
        OperatorPlugins plugins = OperatorPlugins.load(dir);
        assertEquals(List.of(), plugins.problems());
        return plugins;
    }

    /**
     * The plugin archive of {@code plugins/<id>}: the zip where it bundles libraries, else its jar.
     */
    private static Path built(String id) throws IOException {
        Path target = Path.of("..", "plugins", id, "target");
        try (Stream<Path> files = Files.list(target)) {
            List<Path> archives =
                    files.filter(
                                    f ->
                                            f.getFileName()
                                                    .toString()
                                                    .startsWith("groovecast-plugin-" + id + "-"))
                            .filter(
                                    f ->
                                            f.toString().endsWith("-plugin.zip")
                                                    || f.toString()
                                                            .matches(
                                                                    ".*-SNAPSHOT\\.jar|.*-[0-9.]+\\.jar"))
                            .sorted(
                                    (a, b) ->
                                            Boolean.compare(
                                                    b.toString().endsWith(".zip"),
                                                    a.toString().endsWith(".zip")))
                            .toList();
            assertTrue(
                    !archives.isEmpty(),
                    "no built plugin in " + target + ": install the plugins first");
            return archives.getFirst();
        } catch (NoSuchFileException e) {
            throw new AssertionError(target + " does not exist: install the plugins first", e);
        }
    }
}
