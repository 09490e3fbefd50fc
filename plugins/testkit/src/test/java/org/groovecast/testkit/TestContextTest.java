package org.groovecast.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.concurrent.atomic.AtomicBoolean;
import org.groovecast.api.AudioFormat;
import org.junit.jupiter.api.Test;

class TestContextTest {
    @Test
    void theClockMovesOnlyWhenTicked() {
        TestContext ctx = TestContext.of(new AudioFormat(48_000, 1), 960);
        assertEquals(0, ctx.getTicks());
        assertEquals(TestContext.DEFAULT_START, ctx.now());
        ctx.tick();
        ctx.tick();
        assertEquals(2, ctx.getTicks());
        assertEquals(0.04, ctx.getTime(), 1e-12);
        assertEquals(TestContext.DEFAULT_START.plusNanos(40_000_000), ctx.now());
        assertSame(ctx, ctx.clock());
    }

    @Test
    void blockingWorkRunsAtOnceAndTimeStartsWhereAsked() {
        ZonedDateTime start = ZonedDateTime.of(2026, 3, 1, 22, 0, 0, 0, ZoneId.of("Europe/Paris"));
        TestContext ctx = TestContext.standard().startingAt(start);
        AtomicBoolean ran = new AtomicBoolean();
        ctx.beforeStart(() -> ran.set(true));
        assertEquals(true, ran.get());
        assertEquals(ZoneId.of("Europe/Paris"), ctx.zone());
        assertEquals(882, ctx.frameSize());
        assertEquals(AudioFormat.DEFAULT, ctx.format());
    }

    @Test
    void aSeedRepeatsTheRandomChoices() {
        long a = TestContext.standard().seeded(7).random().nextLong();
        long b = TestContext.standard().seeded(7).random().nextLong();
        assertEquals(a, b);
    }
}
