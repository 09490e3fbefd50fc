package org.groovecast.net.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What an admit function's answers come to: allow, deny (the default), or a redirect. */
class AdmitAnswerTest {
    @Test
    void trueAllowsAndAnythingElseDenies() {
        assertEquals(AdmitAnswer.ALLOW, AdmitAnswer.of(true));
        assertEquals(AdmitAnswer.ALLOW, AdmitAnswer.of(" true\n"));
        assertEquals(AdmitAnswer.ALLOW, AdmitAnswer.of(Map.of("allow", true)));
        for (Object no :
                new Object[] {
                    false, "false", "yes", 1, List.of(), Map.of(), Map.of("allow", "true")
                }) assertEquals(AdmitAnswer.DENY, AdmitAnswer.of(no), String.valueOf(no));
        assertEquals(AdmitAnswer.DENY, AdmitAnswer.of(null));
    }

    @Test
    void aRedirectCarriesAUrlOrAPathAndNothingThatCouldInjectAHeader() {
        assertEquals(
                new AdmitAnswer(AdmitAnswer.Kind.REDIRECT, "https://example.org/login?next=/radio"),
                AdmitAnswer.of(Map.of("redirect", "https://example.org/login?next=/radio")));
        assertEquals(
                new AdmitAnswer(AdmitAnswer.Kind.REDIRECT, "/radio-low"),
                AdmitAnswer.of(Map.of("redirect", "/radio-low")));
        for (String bad :
                List.of("https://x/\r\nSet-Cookie: a=b", "javascript:alert(1)", "x y", "ftp://x/"))
            assertThrows(
                    IllegalArgumentException.class,
                    () -> AdmitAnswer.of(Map.of("redirect", bad)),
                    bad);
    }
}
