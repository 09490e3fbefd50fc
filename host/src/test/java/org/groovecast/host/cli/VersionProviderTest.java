package org.groovecast.host.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VersionProviderTest {
    @TempDir Path dir;

    @Test
    void namesTheRuntimeAndWhetherItIsTheDistributionsOwn() throws Exception {
        Path home = Files.createDirectories(dir.resolve("groovecast-1.0"));
        Path bundled = Files.createDirectories(home.resolve("runtime"));
        Path system = Files.createDirectories(dir.resolve("jdk-25"));
        assertEquals(
                "runtime: Eclipse Adoptium 25.0.1+8-LTS, bundled (" + bundled + ")",
                VersionProvider.runtime("Eclipse Adoptium", "25.0.1+8-LTS", bundled, home));
        assertEquals(
                "runtime: Eclipse Adoptium 25.0.1+8-LTS, system (" + system + ")",
                VersionProvider.runtime("Eclipse Adoptium", "25.0.1+8-LTS", system, home));
        assertTrue(
                VersionProvider.runtime("X", "25", system, null)
                        .endsWith(", system (" + system + ")"),
                "run from no distribution (tests, an IDE)");
        // /usr/bin/groovecast -> /usr/lib/groovecast/bin/groovecast: the home is found through
        // links
        Path link = Files.createSymbolicLink(dir.resolve("link"), home);
        assertTrue(
                VersionProvider.runtime("X", "25", bundled, link).contains(", bundled ("),
                "a home reached through a link");
    }

    @Test
    void theVersionSaysWhichJavaRuns() {
        String[] lines = new VersionProvider().getVersion();
        assertEquals(3, lines.length);
        assertTrue(lines[2].startsWith("runtime: " + System.getProperty("java.vendor") + " "));
        assertTrue(lines[2].contains(Runtime.version().toString()), lines[2]);
    }
}
