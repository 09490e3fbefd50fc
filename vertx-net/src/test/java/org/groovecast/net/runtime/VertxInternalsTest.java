package org.groovecast.net.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Vert.x's internal API is reached from {@link VertxInternals} only, in every module's sources. */
class VertxInternalsTest {
    @Test
    void onlyVertxInternalsUsesVertxInternalApi() throws IOException {
        Path root = Path.of("..").toAbsolutePath().normalize();
        List<String> users;
        try (Stream<Path> files = Files.walk(root)) {
            users =
                    files.filter(p -> p.toString().endsWith(".java"))
                            .filter(p -> p.toString().contains("/src/main/java/"))
                            .filter(p -> !p.getFileName().toString().equals("VertxInternals.java"))
                            .filter(VertxInternalsTest::usesInternals)
                            .map(p -> root.relativize(p).toString())
                            .sorted()
                            .toList();
        }
        assertEquals(
                List.of(),
                users,
                "use org.groovecast.net.runtime.VertxInternals instead of io.vertx.core.internal");
    }

    private static boolean usesInternals(Path file) {
        try {
            String text = Files.readString(file);
            return text.contains("io.vertx.core.internal") || text.contains("io.vertx.core.impl");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
