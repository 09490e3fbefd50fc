package org.groovecast.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class FailureEpisodeTest {
    private long now = 1_000;
    private final FailureEpisode episode = new FailureEpisode(() -> now);

    @Test
    void aRunOfFailuresIsLoggedAtItsFirstAndNotWhileItGoesOn() {
        assertEquals(0, episode.failed());
        for (int i = 0; i < 1000; i++) {
            now += 20_000_000; // a failure every frame, 20 s of them
            assertEquals(-1, episode.failed());
        }
    }

    @Test
    void aRunAfterASuccessIsLoggedAgainSayingWhatWasHeldBack() {
        episode.failed();
        episode.failed();
        episode.failed();
        now += FailureEpisode.QUIET_NANOS;
        episode.succeeded();
        assertEquals(2, episode.failed(), "the two failures after the first went unlogged");
        assertEquals(" (2 more failures since the last report)", FailureEpisode.heldBack(2));
        assertEquals("", FailureEpisode.heldBack(0));
    }

    @Test
    void codeThatFlapsIsLoggedOncePerQuietPeriodAndEveryRunIsLoggedOnceItHasPassed() {
        assertEquals(0, episode.failed());
        episode.succeeded();
        now += 1_000_000_000;
        assertEquals(-1, episode.failed(), "a new run within the quiet period waits");
        now += 1_000_000_000;
        assertEquals(-1, episode.failed());
        now += FailureEpisode.QUIET_NANOS;
        assertEquals(
                2, episode.failed(), "the run still going on is logged once the period passed");
        now += FailureEpisode.QUIET_NANOS;
        assertEquals(-1, episode.failed(), "and then not again while it goes on");
    }
}
