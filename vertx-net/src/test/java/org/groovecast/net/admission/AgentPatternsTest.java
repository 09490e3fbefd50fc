package org.groovecast.net.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** A deny list's agent patterns: globs and regular expressions, case aside, and bad ones said. */
class AgentPatternsTest {
    @Test
    void globsMatchTheWholeAgentWhateverTheCase() {
        AgentPatterns p = AgentPatterns.of(List.of("curl/*", "*bot*", "Wget/1.2?"));
        assertTrue(p.matches("curl/8.5.0"));
        assertTrue(p.matches("CURL/7"));
        assertTrue(p.matches("Mozilla/5.0 (compatible; Googlebot/2.1)"));
        assertTrue(p.matches("BOT"));
        assertTrue(p.matches("wget/1.21"));
        assertFalse(p.matches("Wget/1.2"), "? is one character");
        assertFalse(p.matches("libcurl/8"), "a glob matches the whole agent");
        assertFalse(p.matches("VLC/3.0.20 LibVLC/3.0.20"));
        assertFalse(p.matches(null), "no agent: only the empty pattern matches it");
    }

    @Test
    void regularExpressionsAreFoundAnywhereAndTheEmptyPatternMatchesNoAgent() {
        AgentPatterns p = AgentPatterns.of(List.of("/^Lavf\\/5[0-7]/", "/stream ?ripper/", ""));
        assertTrue(p.matches("Lavf/57.83.100"));
        assertFalse(p.matches("Lavf/58.29.100"));
        assertTrue(p.matches("My StreamRipper 1.6"));
        assertTrue(p.matches(null));
        assertTrue(p.matches(""));
        assertFalse(p.matches("VLC/3.0.20"));
        assertTrue(AgentPatterns.NONE.isEmpty());
        assertFalse(AgentPatterns.NONE.matches(null));
    }

    @Test
    void starsBacktrack() {
        assertTrue(AgentPatterns.glob("a*b*c", "axxbyyc"));
        assertTrue(AgentPatterns.glob("a*b*c", "abbbc"));
        assertFalse(AgentPatterns.glob("a*b*c", "abcx"));
        assertTrue(AgentPatterns.glob("*", ""));
        assertTrue(AgentPatterns.glob("**a", "ba"));
        assertFalse(AgentPatterns.glob("a", ""));
    }

    @Test
    void malformedPatternsAreRefusedSayingWhy() {
        assertEquals(
                "agent pattern '/(curl/' is no regular expression: Unclosed group near index 5",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> AgentPatterns.of(List.of("ok*", "/(curl/")))
                        .getMessage());
        assertEquals(
                "agent pattern '/curl' starts a regular expression it does not end with /",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> AgentPatterns.of(List.of("/curl")))
                        .getMessage());
        assertEquals(
                "agent pattern 'a\tb' has a control character",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> AgentPatterns.of(List.of("a\tb")))
                        .getMessage());
    }

    @Tag("allocation")
    @Test
    void globsAllocateNothing() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        AgentPatterns p =
                AgentPatterns.of(List.of("curl/*", "*bot*", "*spider*", "python-requests/*"));
        String agent =
                "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120 Safari/537.36";
        int n = 100_000;
        long per = 0;
        int found = 0;
        for (int round = 0; round < 10; round++) {
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < n; i++) if (p.matches(agent)) found++;
            per = (threads.getCurrentThreadAllocatedBytes() - before) / n;
        }
        assertEquals(0, found);
        assertEquals(0, per, "bytes allocated per agent checked");
    }
}
