package org.groovecast.host.status;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class CachedJsonTest {
    @Test
    void buildsOncePerPeriodHoweverOftenItIsAsked() throws InterruptedException {
        AtomicInteger builds = new AtomicInteger();
        CachedJson json = new CachedJson(200, () -> Map.of("n", builds.incrementAndGet()));
        for (int i = 0; i < 100; i++) assertEquals("{\"n\":1}", json.get());
        Thread.sleep(250);
        assertEquals("{\"n\":2}", json.get());
    }
}
