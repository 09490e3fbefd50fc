package org.groovecast.net.harbor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.Map;
import org.junit.jupiter.api.Test;

class LoginTest {
    @Test
    void booleansAdmitOrRefuseWithoutNamingTheDj() {
        assertEquals(
                new Login(true, "source", "source", "source", false), Login.of(true, "source"));
        assertEquals(
                new Login(false, "source", "source", "source", false), Login.of(false, "source"));
    }

    @Test
    void aMapAdmitsOnlyWithAllowTrueAndNamesTheDj() {
        assertEquals(
                new Login(true, "source", "dj1", "DJ One", true),
                Login.of(
                        Map.of("allow", true, "username", "dj1", "displayName", "DJ One"),
                        "source"));
        // AzuraCast's API answers display_name; a map from json.parse passes straight through
        assertEquals(
                new Login(true, "source", "dj2", "DJ Two", true),
                Login.of(
                        Map.of("allow", true, "username", "dj2", "display_name", "DJ Two"),
                        "source"));
        assertEquals(
                new Login(true, "source", "dj3", "dj3", true),
                Login.of(Map.of("allow", true, "username", "dj3"), "source"));
        assertEquals(
                new Login(true, "dj4", "dj4", "DJ Four", true),
                Login.of(Map.of("allow", "true", "displayName", "DJ Four"), "dj4"));
        assertFalse(Login.of(Map.of("allow", false, "username", "dj1"), "source").allowed());
        assertFalse(Login.of(Map.of("username", "dj1"), "source").allowed(), "no allow: refused");
        assertFalse(Login.of(Map.of("allow", "yes"), "source").allowed());
    }

    @Test
    void textIsReadAsAnHttpApiAnswersItAndAnythingElseRefuses() {
        assertEquals(true, Login.of(" true\n", "u").allowed());
        // Groovy truth would admit any non-empty text: a body "false" must not
        assertFalse(Login.of("false", "u").allowed());
        assertFalse(Login.of("", "u").allowed());
        assertFalse(Login.of(null, "u").allowed());
        assertFalse(Login.of(1, "u").allowed());
    }

    @Test
    void blankNamesAreNoNames() {
        assertEquals(
                new Login(true, "source", "source", "source", false),
                Login.of(Map.of("allow", true, "username", " ", "displayName", ""), "source"));
    }

    @Test
    void aClientThatSendsOnlyAPasswordCarriesTheDjsUserAndPasswordInIt() {
        assertEquals(new Login.Sent("dj1", "pw"), Login.Sent.of("source", "dj1:pw"));
        assertEquals(new Login.Sent("dj1", "pw"), Login.Sent.of("", "dj1,pw"));
        assertEquals(
                new Login.Sent("dj1", "p:w"),
                Login.Sent.of("source", "dj1:p:w"),
                "split at the first separator");
        assertEquals(
                new Login.Sent("dj1", "a:b"),
                Login.Sent.of("dj1", "a:b"),
                "a real user keeps its password whole");
        assertEquals(new Login.Sent("source", "hackme"), Login.Sent.of("source", "hackme"));
        assertEquals(
                new Login.Sent("source", ":pw"),
                Login.Sent.of("source", ":pw"),
                "no user before the separator: as sent");
    }

    @Test
    void onlyTheScriptsFunctionSeesTheSplitTheConfiguredPasswordIsComparedAsSent() {
        LiveInput configured =
                new LiveInput(
                        0,
                        "/live",
                        null,
                        (u, p) -> u.equals("source") && p.equals("a:b"),
                        1,
                        10,
                        10);
        assertEquals(true, configured.login("source", "a:b").allowed());
        LiveInput scripted = new LiveInput(0, "/live", null, (u, p) -> false, 1, 10, 10);
        scripted.auth((u, p) -> u.equals("dj1") && p.equals("pw"));
        assertEquals(
                new Login(true, "dj1", "dj1", "dj1", false), scripted.login("source", "dj1:pw"));
        assertFalse(scripted.login("source", "dj1:other").allowed());
    }
}
