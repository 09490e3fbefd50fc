package org.groovecast.net.auth;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SecretsTest {
    @Test
    void comparesWholeSecrets() {
        assertTrue(Secrets.same("hackme", "hackme"));
        assertTrue(Secrets.same("pässwörd", "pässwörd"));
        assertFalse(Secrets.same("hackme", "hackmf"));
        assertFalse(Secrets.same("hackme", "hack"));
        assertFalse(Secrets.same("hackme", "hackme!"));
        assertFalse(Secrets.same("hackme", ""));
        assertFalse(Secrets.same("hackme", null));
        assertFalse(Secrets.same(null, "hackme"));
    }

    @Test
    void basicCredentialsCheckBothParts() {
        var check = BasicAuth.credentials("source", "secret");
        assertTrue(BasicAuth.accepts(BasicAuth.header("source", "secret"), check));
        assertFalse(BasicAuth.accepts(BasicAuth.header("source", "secreT"), check));
        assertFalse(BasicAuth.accepts(BasicAuth.header("sourcE", "secret"), check));
        assertFalse(BasicAuth.accepts("Basic !!!", check));
        assertFalse(BasicAuth.accepts(null, check));
    }
}
