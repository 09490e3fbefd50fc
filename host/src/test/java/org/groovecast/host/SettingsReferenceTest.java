package org.groovecast.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.groovecast.api.SettingSpec;
import org.groovecast.api.SettingsProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.pf4j.DefaultPluginManager;

class SettingsReferenceTest {
    static final Path README = Path.of("..", "README.md");

    /**
     * The README lists the settings of the plugins the engine ships too. Their jars are on this test's
     * class path, where PF4J finds their extensions as the application's own; declared as loading them would.
     */
    @BeforeAll
    static void declareTheShippedPluginsSettings() {
        for (SettingsProvider p : new DefaultPluginManager(Path.of("target", "no-plugins")).getExtensions(SettingsProvider.class)) {
            for (SettingSpec s : p.settings()) Settings.declare(s, p.getClass().getName());
        }
    }

    @Test
    void theReadmeTableIsTheOneTheDeclarationsMake() throws IOException {
        String readme = Files.readString(README);
        int begin = readme.indexOf(SettingsReference.BEGIN);
        int end = readme.indexOf(SettingsReference.END);
        assertTrue(begin >= 0 && end > begin, "README.md has no settings table between '" + SettingsReference.BEGIN
                + "' and '" + SettingsReference.END + "'");
        String shown = readme.substring(begin + SettingsReference.BEGIN.length(), end).strip() + "\n";
        assertEquals(SettingsReference.table(), shown,
                "README.md's settings table is stale; put this between its markers:\n" + SettingsReference.table());
    }

    @Test
    void everyKeyHasARowWithItsDefaultAsAScriptWritesIt() {
        String table = SettingsReference.table();
        for (Settings.Key k : Settings.keys()) assertTrue(table.contains("| `" + k.name() + "` |"), k.name());
        assertTrue(table.contains("| `clock.maxLatency` | 60 |"), table);
        assertTrue(table.contains("| `scheduler.timerSlack` | 0.001 |"), table);
        assertTrue(table.contains("| `clock.startTime` | (empty) |"), table);
        assertTrue(table.contains("| `clock.sync` | `auto` |"), table);
        assertTrue(table.contains("| `scheduler.threads` | cores |"), table);
        assertTrue(table.contains("| `ffmpeg.scalingThreads` | 1 |"), table);
    }
}
