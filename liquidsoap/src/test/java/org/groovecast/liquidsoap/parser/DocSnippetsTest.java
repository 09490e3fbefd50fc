package org.groovecast.liquidsoap.parser;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.groovecast.liquidsoap.lexer.SourceText;
import org.junit.jupiter.api.Test;

/**
 * Every fenced {@code liquidsoap} block of docs/reference/liquidsoap.md parses (a block's errors
 * name the page and its line), as the docs' Groovy blocks load in the scripts module.
 */
class DocSnippetsTest {
    private static final Path PAGE = Path.of("../docs/reference/liquidsoap.md");

    @Test
    void everyLiquidsoapBlockParses() throws IOException {
        List<String> lines = Files.readAllLines(PAGE);
        int blocks = 0;
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).strip().equals("```liquidsoap")) continue;
            int start = i + 1;
            StringBuilder text = new StringBuilder("\n".repeat(start));
            for (i = start; i < lines.size() && !lines.get(i).strip().equals("```"); i++) {
                text.append(lines.get(i)).append('\n');
            }
            assertTrue(i < lines.size(), PAGE + ":" + start + ": a block that never closes");
            Parser.parse(new SourceText(PAGE.toString(), text.toString()), new ArrayList<>());
            blocks++;
        }
        assertFalse(blocks == 0, "no liquidsoap block in " + PAGE);
    }
}
