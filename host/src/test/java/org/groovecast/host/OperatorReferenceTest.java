package org.groovecast.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.groovecast.api.OperatorSpec;
import org.groovecast.host.plugin.OperatorPlugins;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OperatorReferenceTest {
    static final Path REFERENCE = Path.of("..", "docs", "reference", "operators.md");
    @TempDir static Path pluginsDir;
    static OperatorPlugins plugins;
    static String reference;

    @BeforeAll
    static void loadTheShippedPlugins() throws IOException {
        plugins = ShippedPlugins.load(pluginsDir);
        reference = OperatorReference.markdown(plugins.functions());
    }

    @AfterAll
    static void unload() {
        if (plugins != null) plugins.close();
    }

    @Test
    void docsOperatorsIsTheReferenceTheSpecsMake() throws IOException {
        String doc = Files.readString(REFERENCE);
        int begin = doc.indexOf(OperatorReference.BEGIN);
        int end = doc.indexOf(OperatorReference.END);
        assertTrue(
                begin >= 0 && end > begin,
                "docs/reference/operators.md has no reference between '"
                        + OperatorReference.BEGIN
                        + "' and '"
                        + OperatorReference.END
                        + "'");
        String shown = doc.substring(begin + OperatorReference.BEGIN.length(), end).strip() + "\n";
        assertEquals(
                reference,
                shown,
                "docs/reference/operators.md is stale; put this between its markers:\n"
                        + reference);
    }

    @Test
    void everyOperatorHasARowInItsProvidersSection() {
        for (OperatorSpec spec : Station.functionTable(plugins.functions()).all()) {
            assertTrue(reference.contains("| `" + spec.name() + "` | `"), spec.name());
        }
        assertTrue(section("network").contains("| `output.harbor` |"), reference);
        assertTrue(section("engine").contains("| `thread.run` |"), reference);
        assertTrue(section("control").contains("| `server.telnet` |"), reference);
        assertTrue(section("core").contains("| `sine` |"), reference);
        assertTrue(section("ffmpeg").contains("| `playlist` |"), reference);
    }

    private static String section(String owner) {
        int at = reference.indexOf("## " + owner + "\n");
        assertTrue(at >= 0, "no section " + owner + " in:\n" + reference);
        int next = reference.indexOf("\n## ", at + 1);
        return reference.substring(at, next < 0 ? reference.length() : next);
    }
}
