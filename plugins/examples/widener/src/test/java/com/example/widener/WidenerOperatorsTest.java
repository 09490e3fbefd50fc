package com.example.widener;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.groovecast.api.Metadata;
import org.groovecast.api.ScriptException;
import org.groovecast.api.Source;
import org.groovecast.testkit.FramePuller;
import org.groovecast.testkit.MetadataAt;
import org.groovecast.testkit.OperatorCall;
import org.groovecast.testkit.Pulled;
import org.groovecast.testkit.TestContext;
import org.groovecast.testkit.TestSource;
import org.junit.jupiter.api.Test;

class WidenerOperatorsTest {
    static Source widen(Map<String, ?> named, Source input) {
        return OperatorCall.source(new WidenerOperators(), "example.widen", named, input);
    }

    @Test
    void aCentredSourceAndItsTracksPassUnchanged() {
        Source s = widen(Map.of("width", 2), TestSource.sine(440, 0.5).tracks(1).titled("song"));
        Pulled p = new FramePuller(s, TestContext.standard()).pullSeconds(2.5);
        assertEquals(0.5, p.peak(0), 1e-3); // no side signal to widen
        assertEquals(List.of(0, 44_100, 88_200), p.trackStarts());
        assertEquals(
                new MetadataAt(50, 44_100, Metadata.of("title", "song 2")), p.metadata().get(1));
    }

    @Test
    void aWidthOutOfRangeIsAScriptError() {
        assertThrows(ScriptException.class, () -> widen(Map.of("width", 5), TestSource.level(0)));
    }
}
