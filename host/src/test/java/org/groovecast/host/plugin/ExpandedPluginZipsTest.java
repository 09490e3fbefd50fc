package org.groovecast.host.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pf4j.util.FileUtils;

class ExpandedPluginZipsTest {
    @TempDir Path dir;

    /** Reproducible builds stamp zips with a fixed date, older than any earlier expansion. */
    private static final FileTime BUILD_DATE = FileTime.from(Instant.parse("2026-12-02T00:00:00Z"));

    @Test
    void aZipUpgradedInPlaceWithAnOlderDateIsExpandedAgain() throws IOException {
        Path zip = writeZip("plugin.properties", "plugin.version=1\n");
        ExpandedPluginZips.refresh(dir);
        assertEquals("plugin.version=1\n", read("plugin.properties"));

        writeZip("plugin.properties", "plugin.version=2\n");
        ExpandedPluginZips.refresh(dir);
        // What PF4J does next when it loads: it must find version 2 expanded.
        FileUtils.expandIfZip(zip);
        assertEquals("plugin.version=2\n", read("plugin.properties"));
    }

    @Test
    void anUnchangedZipIsNotExpandedAgain() throws IOException {
        writeZip("plugin.properties", "plugin.version=1\n");
        ExpandedPluginZips.refresh(dir);
        Path extra = dir.resolve("p").resolve("kept-by-the-plugin");
        Files.writeString(extra, "x");
        ExpandedPluginZips.refresh(dir);
        assertTrue(Files.exists(extra));
    }

    @Test
    void aDirectoryExpandedBeforeMarkersExistedIsExpandedOnceMore() throws IOException {
        Path zip = writeZip("plugin.properties", "plugin.version=2\n");
        Files.createDirectories(dir.resolve("p"));
        Files.writeString(dir.resolve("p/plugin.properties"), "plugin.version=1\n");
        ExpandedPluginZips.refresh(dir);
        assertEquals("plugin.version=2\n", read("plugin.properties"));
        assertEquals(
                ExpandedPluginZips.contentOf(zip),
                Files.readString(dir.resolve("p").resolve(ExpandedPluginZips.MARKER)));
    }

    @Test
    void aCorruptZipIsLeftForTheLoaderToReport() throws IOException {
        Files.writeString(dir.resolve("broken.zip"), "not a zip");
        ExpandedPluginZips.refresh(dir);
        assertTrue(Files.notExists(dir.resolve("broken")));
    }

    private Path writeZip(String entry, String text) throws IOException {
        Path zip = dir.resolve("p.zip");
        try (OutputStream out = Files.newOutputStream(zip);
                ZipOutputStream z = new ZipOutputStream(out)) {
            z.putNextEntry(new ZipEntry(entry));
            z.write(text.getBytes(StandardCharsets.UTF_8));
            z.closeEntry();
        }
        Files.setLastModifiedTime(zip, BUILD_DATE);
        return zip;
    }

    private String read(String entry) throws IOException {
        return Files.readString(dir.resolve("p").resolve(entry));
    }
}
