package org.groovecast.host;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The scheduler's busy share follows the recent load, not the average since the start. */
class RecentShareTest {
    private static final long S = 1_000_000_000L;

    @Test
    void anIdleHourIsForgottenWithinTwoWindows() {
        AtomicLong now = new AtomicLong();
        AtomicLong busy = new AtomicLong();
        RecentShare share = new RecentShare(busy::get, 2, 10, now::get);

        now.set(10 * S); // one thread of two busy all along
        busy.set(10 * S);
        assertEquals(0.5, share.read(), 1e-9);

        for (long t = 15; t <= 3610; t += 5) { // an idle hour, scraped every 5 s
            now.set(t * S);
            share.read();
        }
        assertEquals(0.0, share.read(), 1e-9);

        now.set(3615 * S); // both threads busy from then on
        busy.addAndGet(10 * S);
        assertEquals(1 / 3.0, share.read(), 1e-9, "the window still holds 10 idle seconds");
        now.set(3620 * S);
        busy.addAndGet(10 * S);
        assertEquals(
                1.0,
                share.read(),
                1e-9,
                "a window on, only the busy seconds count (since the start: 0.4 %)");
    }
}
