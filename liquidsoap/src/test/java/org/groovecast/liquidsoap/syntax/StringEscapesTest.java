package org.groovecast.liquidsoap.syntax;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A string literal's value from its text, with Liquidsoap 2.4's escapes. */
class StringEscapesTest {

    private static String text(String raw) {
        return StringEscapes.text(StringEscapes.render(raw, '"'));
    }

    @Test
    void namedEscapes() {
        assertEquals("\u0007\b\u001b\f\n\r\t\u000b", text("\\a\\b\\e\\f\\n\\r\\t\\v"));
    }

    @Test
    void quotesSlashAndBackslash() {
        assertEquals("\"'/\\?", text("\\\"\\'\\/\\\\\\?"));
    }

    @Test
    void bytesAndCharacters() {
        assertEquals("AA\u00e9", text("\\x41\\101\\u00e9"));
        // bytes make UTF-8 as Liquidsoap's strings are bytes: "\xF0\x9F\x98\x85" is one emoji
        assertEquals("\uD83D\uDE05", text("\\xF0\\x9F\\x98\\x85"));
        assertArrayEquals(new byte[] {(byte) 0xff}, StringEscapes.render("\\377", '"').bytes());
        assertArrayEquals(new byte[] {(byte) 0xff}, StringEscapes.render("\\777", '"').bytes());
    }

    @Test
    void bytesThatAreNoUtf8ReadAsOneReplacementPerCharacter() {
        // the lead byte announces three bytes: "\xE2\x00" is one character Liquidsoap cannot read
        assertEquals("a\uFFFD", text("a\\xE2\\x00"));
        assertEquals("\uFFFDb", text("\\xFFb"));
    }

    @Test
    void aBackslashBeforeALineBreakJoinsTheLines() {
        assertEquals("ab", text("a\\\n    b"));
    }

    @Test
    void anUnknownEscapeStaysWithAWarning() {
        StringEscapes.Rendered r = StringEscapes.render("a\\qb\\x4", '"');
        assertEquals("a\\qb\\x4", new String(r.bytes(), StandardCharsets.UTF_8));
        assertEquals(List.of(1, 4), r.strayBackslashes());
    }

    @Test
    void inARegexpEscapesOfQuotesKeepTheirBackslash() {
        StringEscapes.Rendered r = StringEscapes.render("\\\"\\/\\?\\d", '/');
        assertEquals("\\\"/\\?\\d", new String(r.bytes(), StandardCharsets.UTF_8));
        assertTrue(r.strayBackslashes().isEmpty());
    }

    @Test
    void aLoneBackslashAtTheEndLeavesTheStringOpen() {
        assertTrue(StringEscapes.render("abc\\", '"').unterminated());
    }
}
