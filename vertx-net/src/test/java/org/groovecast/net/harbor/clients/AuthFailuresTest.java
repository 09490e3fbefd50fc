package org.groovecast.net.harbor.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;

class AuthFailuresTest {
    @Test
    void refusesAnAddressPastItsFailuresForTheRestOfTheWindow() throws Exception {
        HarborLimits limits = new HarborLimits(1, 1, 1, 1, false, 3, 300_000_000L, 1);
        AuthFailures f = new AuthFailures(8000);
        InetAddress a = InetAddress.getByName("10.0.0.1");
        InetAddress b = InetAddress.getByName("10.0.0.2");
        f.failed(a, limits);
        f.failed(a, limits);
        assertEquals(0, f.retryAfter(a, limits));
        f.failed(a, limits);
        assertEquals(1, f.retryAfter(a, limits)); // under a second left, said as 1 s
        assertEquals(0, f.retryAfter(b, limits));
        Thread.sleep(350);
        assertEquals(0, f.retryAfter(a, limits));
        f.failed(a, limits); // a new window: one failure
        assertEquals(0, f.retryAfter(a, limits));
    }

    @Test
    void aWindowOfAMinuteTellsTheSecondsLeft() throws Exception {
        HarborLimits limits = new HarborLimits(1, 1, 1, 1, false, 1, 60_000_000_000L, 1);
        AuthFailures f = new AuthFailures(8000);
        InetAddress a = InetAddress.getByName("10.0.0.1");
        f.failed(a, limits);
        long left = f.retryAfter(a, limits);
        assertTrue(left > 58 && left <= 60, "retry after " + left);
    }
}
