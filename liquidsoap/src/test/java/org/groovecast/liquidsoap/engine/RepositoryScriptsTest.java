package org.groovecast.liquidsoap.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.groovecast.host.script.ScriptError;
import org.groovecast.host.script.ScriptErrors;
import org.groovecast.host.script.ScriptSettings;
import org.junit.jupiter.api.Test;

/**
 * Every Liquidsoap script the repository shows passes the check a station makes before it runs, the
 * type check included, against the shipped station's library: the {@code liquidsoap} blocks of
 * README.md, CONTRIBUTING.md and every page under docs/ (its folders too) and the stations of
 * scripts/ (the integration specs run their own inline scripts through the same check).
 */
class RepositoryScriptsTest {
    private static final Path ROOT = Path.of("..");

    static final ScriptSettings NO_SETTINGS = ScriptSettings.none();

    /** A script: where it is written, and its text (with blank lines up to its first line). */
    record Script(String where, String text) {}

    static List<Script> scripts() throws IOException {
        List<Script> out = new ArrayList<>();
        List<Path> pages =
                new ArrayList<>(
                        List.of(ROOT.resolve("README.md"), ROOT.resolve("CONTRIBUTING.md")));
        try (Stream<Path> docs = Files.walk(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        for (Path page : pages) {
            List<String> lines = Files.readAllLines(page);
            for (int i = 0; i < lines.size(); i++) {
                if (!lines.get(i).strip().equals("```liquidsoap")) continue;
                int start = i + 1;
                StringBuilder text = new StringBuilder("\n".repeat(start));
                for (i = start; i < lines.size() && !lines.get(i).strip().equals("```"); i++) {
                    text.append(lines.get(i)).append('\n');
                }
                out.add(new Script(ROOT.relativize(page) + ":" + start, text.toString()));
            }
        }
        try (Stream<Path> liq = Files.list(ROOT.resolve("scripts"))) {
            for (Path f : liq.filter(p -> p.toString().endsWith(".liq")).sorted().toList()) {
                out.add(new Script("scripts/" + f.getFileName(), Files.readString(f)));
            }
        }
        return out;
    }

    @Test
    void everyScriptOfTheRepositoryPassesTheCheck() throws IOException {
        List<Script> scripts = scripts();
        assertTrue(scripts.size() >= 4, "scripts found: " + scripts);
        assertTrue(
                scripts.stream()
                        .anyMatch(s -> s.where().startsWith("docs/reference/liquidsoap.md:")),
                "the pages in docs' folders are read: " + scripts);
        List<String> failures = new ArrayList<>();
        for (Script s : scripts) {
            try {
                new LiquidsoapFrontEnd()
                        .load("station.liq", s.text(), ShippedStation.functions(), NO_SETTINGS);
            } catch (ScriptError | ScriptErrors e) {
                failures.add(s.where() + ": " + e.getMessage());
            }
        }
        assertEquals(List.of(), failures);
    }
}
