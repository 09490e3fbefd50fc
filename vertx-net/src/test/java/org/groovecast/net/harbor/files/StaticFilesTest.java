package org.groovecast.net.harbor.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StaticFilesTest {
    @TempDir Path dir;

    private StaticFiles files() throws Exception {
        Path root = Files.createDirectories(dir.resolve("www"));
        Files.writeString(root.resolve("page.html"), "inside");
        Files.createDirectories(root.resolve("sub"));
        Files.writeString(dir.resolve("secret.txt"), "outside");
        Files.createSymbolicLink(root.resolve("out.txt"), dir.resolve("secret.txt"));
        Files.createSymbolicLink(root.resolve("in.html"), root.resolve("page.html"));
        return new StaticFiles(root);
    }

    @Test
    void servesFilesAndLinksInsideTheDirectory() throws Exception {
        StaticFiles f = files();
        assertEquals(f.root().resolve("page.html").toRealPath(), f.file("page.html", false));
        assertEquals(f.root().resolve("page.html").toRealPath(), f.file("in.html", false));
        assertNull(f.file("missing.html", false));
        assertNull(f.file("sub", false)); // a directory is no file
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "../secret.txt",
                "sub/../../secret.txt",
                "..",
                "sub/..",
                "..\\secret.txt",
                "/etc/passwd",
                "a\\b"
            })
    void refusesPathsThatTryToLeave(String relative) throws Exception {
        StaticFiles f = files();
        assertEquals(
                400, assertThrows(StaticFiles.Refused.class, () -> f.file(relative, false)).status);
        assertEquals(
                400, assertThrows(StaticFiles.Refused.class, () -> f.file(relative, true)).status);
    }

    @Test
    void decodesNothingItself() throws Exception {
        StaticFiles f = files();
        assertNull(
                f.file(
                        "%2e%2e/secret.txt",
                        false)); // a directory named "%2e%2e", which is not there
        assertNull(f.file("%2e%2e%2fsecret.txt", false));
    }

    @Test
    void refusesLinksOutOfTheDirectoryUnlessAllowed() throws Exception {
        StaticFiles f = files();
        assertEquals(
                403,
                assertThrows(StaticFiles.Refused.class, () -> f.file("out.txt", false)).status);
        assertEquals(dir.resolve("secret.txt").toRealPath(), f.file("out.txt", true));
    }
}
