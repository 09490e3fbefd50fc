package org.groovecast.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.groovecast.host.plugin.OperatorPlugins;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SettingsReferenceTest {
    static final Path REFERENCE = Path.of("..", "docs", "reference", "settings.md");

    @TempDir static Path pluginsDir;
    static OperatorPlugins plugins;

    /**
     * The reference lists the settings of the plugins the engine ships too, declared as loading
     * them does.
     */
    @BeforeAll
    static void loadTheShippedPlugins() throws IOException {
        plugins = ShippedPlugins.load(pluginsDir);
    }

    @AfterAll
    static void unload() {
        if (plugins != null) plugins.close();
    }

    @Test
    void theReferenceTableIsTheOneTheDeclarationsMake() throws IOException {
        String page = Files.readString(REFERENCE);
        int begin = page.indexOf(SettingsReference.BEGIN);
        int end = page.indexOf(SettingsReference.END);
        assertTrue(
                begin >= 0 && end > begin,
                "docs/reference/settings.md has no settings table between '"
                        + SettingsReference.BEGIN
                        + "' and '"
                        + SettingsReference.END
                        + "'");
        String shown = page.substring(begin + SettingsReference.BEGIN.length(), end).strip() + "\n";
        assertEquals(
                SettingsReference.table(),
                shown,
                "docs/reference/settings.md is stale; put this between its markers:\n"
                        + SettingsReference.table());
    }

    @Test
    void everyKeyHasARowWithItsDefaultAsAScriptWritesIt() {
        String table = SettingsReference.table();
        for (Settings.Key k : Settings.keys())
            assertTrue(table.contains("| `" + k.name() + "` |"), k.name());
        assertTrue(table.contains("| `clock.maxLatency` | 60 |"), table);
        assertTrue(table.contains("| `scheduler.timerSlack` | 0.001 |"), table);
        assertTrue(table.contains("| `clock.startTime` | (empty) |"), table);
        assertTrue(table.contains("| `clock.sync` | `auto` |"), table);
        assertTrue(table.contains("| `scheduler.threads` | cores |"), table);
        assertTrue(table.contains("| `ffmpeg.scalingThreads` | 1 |"), table);
    }
}
