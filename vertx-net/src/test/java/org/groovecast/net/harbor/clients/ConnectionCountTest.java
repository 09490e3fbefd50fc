package org.groovecast.net.harbor.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;

class ConnectionCountTest {
    private static final HarborLimits LIMITS = new HarborLimits(1, 1, 4, 2, false, 1, 1, 1);

    @Test
    void capsEachAddressAndThePort() throws Exception {
        ConnectionCount c = new ConnectionCount(8000);
        InetAddress a = InetAddress.getByName("10.0.0.1");
        InetAddress b = InetAddress.getByName("10.0.0.2");
        InetAddress d = InetAddress.getByName("10.0.0.3");
        assertEquals(ConnectionCount.Admission.ADMITTED, c.acquire(a, LIMITS));
        assertEquals(ConnectionCount.Admission.ADMITTED, c.acquire(a, LIMITS));
        assertEquals(ConnectionCount.Admission.ADDRESS_FULL, c.acquire(a, LIMITS));
        assertEquals(ConnectionCount.Admission.ADMITTED, c.acquire(b, LIMITS));
        assertEquals(ConnectionCount.Admission.ADMITTED, c.acquire(b, LIMITS));
        assertEquals(ConnectionCount.Admission.PORT_FULL, c.acquire(d, LIMITS));
        assertEquals(4, c.total());

        c.release(a);
        assertEquals(1, c.from(a));
        assertEquals(ConnectionCount.Admission.ADMITTED, c.acquire(d, LIMITS));
        c.release(a);
        c.release(b);
        c.release(b);
        c.release(d);
        assertEquals(0, c.total());
        assertEquals(0, c.from(a));
        assertEquals(ConnectionCount.Admission.ADMITTED, c.acquire(a, LIMITS));
    }

    @Test
    void countsRightUnderConcurrency() throws Exception {
        ConnectionCount c = new ConnectionCount(8000);
        HarborLimits wide = new HarborLimits(1, 1, 1_000_000, 1_000_000, false, 1, 1, 1);
        InetAddress a = InetAddress.getByName("10.0.0.1");
        Thread[] threads = new Thread[8];
        for (int t = 0; t < threads.length; t++) {
            threads[t] =
                    Thread.ofPlatform()
                            .start(
                                    () -> {
                                        for (int i = 0; i < 20_000; i++) {
                                            c.acquire(a, wide);
                                            c.release(a);
                                        }
                                    });
        }
        for (Thread t : threads) t.join();
        assertEquals(0, c.total());
        assertEquals(0, c.from(a));
    }
}
