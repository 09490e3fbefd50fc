package org.groovecast.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.groovecast.api.Arguments;
import org.groovecast.api.OperatorProvider;
import org.groovecast.api.OperatorSpec;
import org.groovecast.api.Source;
import org.groovecast.api.UserFunction;
import org.groovecast.api.ValueType;
import org.junit.jupiter.api.Test;

class OperatorCallTest {
    /** Records the arguments its factory saw. */
    static final class Probe implements OperatorProvider {
        Arguments seen;

        @Override
        public List<OperatorSpec> operators() {
            return List.of(
                    OperatorSpec.named("probe")
                            .named("gain", ValueType.NUMBER, 1.0, "")
                            .named("count", ValueType.INTEGER, 3, "")
                            .positional("sources", ValueType.SOURCES, "")
                            .positional("then", ValueType.FUNCTION, "")
                            .create(
                                    a -> {
                                        seen = a;
                                        return a.sources("sources").getFirst();
                                    }));
        }
    }

    @Test
    void bindsAsAScriptDoes() {
        Probe probe = new Probe();
        Source a = TestSource.level(0);
        Source b = TestSource.level(0);
        UserFunction f = args -> null;
        Source made = OperatorCall.source(probe, "probe", Map.of("gain", 2, "id", "mine"), a, b, f);
        assertSame(a, made);
        assertEquals("mine", made.id());
        assertEquals(2.0, probe.seen.number("gain"));
        assertEquals(3, probe.seen.integer("count"));
        assertEquals(true, probe.seen.given("gain"));
        assertEquals(false, probe.seen.given("count"));
        assertEquals(List.of(a, b), probe.seen.sources("sources"));
        assertSame(f, probe.seen.function("then"));
        OperatorCall.source(probe, "probe", Map.of(), List.of(b, a), f);
        assertEquals(List.of(b, a), probe.seen.sources("sources"));
    }

    @Test
    void refusesWhatTheScriptCompilerWouldRefuse() {
        Probe probe = new Probe();
        Source a = TestSource.level(0);
        UserFunction f = args -> null;
        assertThrows(
                IllegalArgumentException.class,
                () -> OperatorCall.source(probe, "probe", Map.of("volume", 1), a, f));
        assertThrows(
                IllegalArgumentException.class,
                () -> OperatorCall.source(probe, "probe", Map.of("gain", "loud"), a, f));
        assertThrows(
                IllegalArgumentException.class,
                () -> OperatorCall.source(probe, "probe", Map.of(), f));
        assertThrows(
                IllegalArgumentException.class,
                () -> OperatorCall.source(probe, "nothing", Map.of(), a, f));
    }
}
