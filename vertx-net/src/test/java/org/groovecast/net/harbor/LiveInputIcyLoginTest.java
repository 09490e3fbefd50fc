package org.groovecast.net.harbor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How a Shoutcast v1 (ICY) client's password line logs in to input.harbor (LiveInput, the only
 * production ingest).
 */
class LiveInputIcyLoginTest {
    private static LiveInput input(String user, String password) {
        return new LiveInput(
                0, "/live", null, (u, p) -> u.equals(user) && p.equals(password), 1, 2, 1);
    }

    @Test
    void thePasswordAloneIsTheConfiguredUsersOrSourceByDefault() {
        LiveInput in = input("source", "pw");
        Login l = in.icyLogin("pw");
        assertTrue(l.allowed());
        assertEquals("source", l.user());
        assertFalse(in.icyLogin("nope").allowed());

        LiveInput dj = input("dj1", "pw");
        assertFalse(
                dj.icyLogin("pw").allowed(), "checked as user source until user: says otherwise");
        dj.icyUser("dj1");
        assertTrue(dj.icyLogin("pw").allowed());
    }

    @Test
    void aUserColonPasswordLineIsAlsoTriedAsThatUserAndPassword() {
        LiveInput in = input("dj", "pw");
        Login l = in.icyLogin("dj:pw");
        assertTrue(l.allowed());
        assertEquals("dj", l.user());
        assertFalse(in.icyLogin("dj:nope").allowed());
        assertTrue(
                input("source", "a:b").icyLogin("a:b").allowed(),
                "a password with a colon in it, whole, first");
    }

    @Test
    void anAuthFunctionIsAskedOnceWithTheLineSplitAsForAnyPasswordOnlyClient() {
        LiveInput in = input("source", "unused");
        List<String> asked = new ArrayList<>();
        in.auth(
                (u, p) -> {
                    asked.add(u + "/" + p);
                    return u.equals("dj1") && p.equals("pw");
                });
        assertTrue(in.icyLogin("dj1:pw").allowed());
        assertFalse(in.icyLogin("dj1:nope").allowed());
        assertEquals(
                List.of("dj1/pw", "dj1/nope"), asked, "one question per line, never a second try");
    }
}
