package org.groovecast.host.script;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.groovecast.api.OperatorSpec;
import org.groovecast.api.ScriptException;
import org.groovecast.api.UserFunction;
import org.groovecast.api.ValueType;
import org.groovecast.host.Station;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A script's function as the engine calls it, off the script's load: whatever it throws, short of
 * the JVM running out of memory, stays here, logged once per run of failures with the script's
 * line, and the call answers its failure value.
 */
class ClosureFunctionTest {
    /** What the scripts under test hand to {@code keep}, in order. */
    private final List<Object> kept = new ArrayList<>();

    private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
    private final Logger logger = (Logger) LoggerFactory.getLogger(ClosureFunction.class);

    @BeforeEach
    void capture() {
        logs.start();
        logger.addAppender(logs);
    }

    @AfterEach
    void release() {
        logger.detachAppender(logs);
    }

    private List<String> logged() {
        return logs.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
    }

    /**
     * Loads {@code script} (with an output, as a station needs) where {@code keep(f)} keeps f, and
     * {@code keep(f, now: true)} also calls it at once, while the script loads.
     */
    private void load(String script) {
        ScriptFunctions f = ScriptCompilerTest.functions();
        f.add(
                OperatorSpec.named("keep")
                        .positional("f", ValueType.ANY, "a function or what Groovy made of one")
                        .named("now", ValueType.BOOLEAN, false, "call it at once")
                        .returns(ValueType.NONE)
                        .create(
                                a -> {
                                    Object v = a.value("f");
                                    if (a.bool("now")) ((UserFunction) v).call();
                                    kept.add(v);
                                    return null;
                                }),
                "test");
        Station.load("s.groovy", script + "\nout.sink(tone())\n", f, Map.of());
    }

    private UserFunction function(int i) {
        return (UserFunction) kept.get(i);
    }

    @Test
    void aFailingFunctionAnswersItsFailureValueAndIsLoggedOnceWithItsLine() {
        load(
                """
                keep { x ->
                    assert x > 0, 'not positive'
                    x
                }
                """);
        UserFunction f = function(0);
        assertEquals(3, f.call(3));
        assertNull(f.call(0));
        assertFalse(f.test(0));
        assertEquals("kept", f.callOr("kept", 0));
        assertEquals(
                List.of(
                        "a script function failed, the station goes on: s.groovy:2: assertion failed: not positive"),
                logged(),
                "one line for the run of three failures");
        assertTrue(f.test(1), "it answers again once it works");
    }

    @Test
    void aStackOverflowIsAFailureOfTheFunctionLikeAnyOther() {
        load(
                """
                int deeper(int n) { deeper(n + 1) + 1 }
                keep { -> deeper(0) }
                """);
        assertNull(function(0).call());
        assertEquals(
                List.of(
                        "a script function failed, the station goes on: s.groovy:1: stack overflow "
                                + "(a function that calls itself without end?)"),
                logged());
    }

    @Test
    void aFunctionCalledWithArgumentsItDoesNotTakeIsReportedWhereTheScriptHandedItOver() {
        load(
                """
                Closure select() { return { -> 'never' } }

                keep(select())
                """);
        assertNull(function(0).call("music"));
        assertEquals(
                List.of(
                        "a script function failed, the station goes on: s.groovy:3: the function takes no "
                                + "arguments but is called with 1 (String \"music\")"),
                logged());
    }

    @Test
    void anErrorWithoutAMessageStillSaysWhatAndWhere() {
        load(
                "keep { -> throw new AssertionError() }\nkeep { -> throw new NullPointerException() }");
        assertNull(function(0).call());
        assertNull(function(1).call());
        assertEquals(
                List.of(
                        "a script function failed, the station goes on: s.groovy:1: assertion failed",
                        "a script function failed, the station goes on: s.groovy:2: NullPointerException"),
                logged());
    }

    @Test
    void runningOutOfMemoryIsNotTheFunctionsFailure() {
        load("keep { -> throw new OutOfMemoryError('test') }");
        assertThrows(OutOfMemoryError.class, () -> function(0).call());
        assertEquals(List.of(), logged());
    }

    @Test
    void whileTheScriptLoadsAFailureFailsTheLoadAtItsLine() {
        ScriptError e =
                assertThrows(
                        ScriptError.class,
                        () ->
                                load(
                                        "keep(now: true) { -> throw new IllegalStateException('at load') }"));
        assertTrue(e.getMessage().startsWith("s.groovy:1: "), e.getMessage());
        assertTrue(e.getMessage().contains("at load"), e.getMessage());
    }

    @Test
    void aCallInterruptedByTheEngineIsNotLoggedAndKeepsItsInterrupt() {
        load("keep { -> Thread.sleep(10_000); 'slept' }");
        Thread.currentThread().interrupt();
        try {
            assertNull(function(0).call());
            assertTrue(Thread.currentThread().isInterrupted());
        } finally {
            Thread.interrupted();
        }
        assertEquals(List.of(), logged());
    }

    @Test
    void aCallerThatReportsTheFailureItselfGetsItAsARuntimeException() {
        load("keep { -> assert false, 'catalogue down' }");
        ScriptException e =
                assertThrows(
                        ScriptException.class, () -> ((ClosureFunction) function(0)).callRaising());
        assertTrue(e.getMessage().startsWith("assertion failed: catalogue down"), e.getMessage());
        assertInstanceOf(AssertionError.class, e.getCause());
        assertEquals(List.of(), logged(), "not logged: the caller reports it");
    }

    @Test
    void aClosureGroovyTurnedIntoAJavaInterfaceIsLocatedAsWell() {
        load(
                """
                keep({ m ->
                    assert m, 'empty'
                } as java.util.function.Consumer)
                """);
        @SuppressWarnings("unchecked")
        Consumer<Object> c = (Consumer<Object>) kept.getFirst();
        AssertionError thrown = assertThrows(AssertionError.class, () -> c.accept(""));
        assertEquals("s.groovy:2: assertion failed: empty", ScriptFailure.describe(c, thrown));
    }
}
