package org.groovecast.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class CallbackScopeTest {
    @Test
    void collectsExactlyWhatTheCallRegisteredOnTheWatchedSources() {
        TestSources.Counter watched = new TestSources.Counter(10);
        TestSources.Counter other = new TestSources.Counter(10);
        watched.onTrack(m -> {}); // registered before: not ours to release
        CallbackScope.Collected<String> c =
                CallbackScope.collect(
                        List.of(watched),
                        () -> {
                            watched.onMetadata(m -> {});
                            deepInUserCode(watched);
                            other.onTrack(m -> {});
                            return "value";
                        });
        assertEquals("value", c.value());
        assertEquals(3, watched.registrations());
        c.release();
        assertEquals(1, watched.registrations());
        assertEquals(1, other.registrations(), "an unwatched source keeps its callback");
    }

    @Test
    void nestedScopesEachCollectWhatTheyWatch() {
        TestSources.Counter a = new TestSources.Counter(10);
        TestSources.Counter b = new TestSources.Counter(10);
        CallbackScope.Collected<CallbackScope.Collected<Void>> outer =
                CallbackScope.collect(
                        List.of(a, b),
                        () ->
                                CallbackScope.collect(
                                        List.of(b),
                                        () -> {
                                            a.onTrack(m -> {});
                                            b.onTrack(m -> {});
                                            return null;
                                        }));
        outer.value().release();
        assertEquals(1, a.registrations());
        assertEquals(0, b.registrations());
        outer.release();
        assertEquals(0, a.registrations());
    }

    @Test
    void tenThousandCollectedCallsLeaveTheCountFlat() {
        TestSources.Counter s = new TestSources.Counter(10);
        Registration previous = Registration.NONE;
        for (int i = 0; i < 10_000; i++) {
            previous.release();
            previous =
                    CallbackScope.collect(List.of(s), () -> s.onMetadata(m -> {})).registration();
        }
        assertEquals(1, s.registrations());
    }

    private static void deepInUserCode(Source s) {
        s.onFrame(true, () -> {});
    }
}
