package org.groovecast.liquidsoap.types;

import static org.groovecast.liquidsoap.types.Check.error;
import static org.groovecast.liquidsoap.types.Check.ok;
import static org.groovecast.liquidsoap.types.Check.type;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Nullable values: null, ??, null(x), null.default. */
class NullableTest {
    @Test
    void nullIsNullableAnything() {
        type("'a?", "x = null");
        type("int?", "x = (null : int?)");
        type("int", "x = null ?? 1");
        type("int", "x = (null : int?) ?? 2");
    }

    @Test
    void theFallbackMustFit() {
        assertEquals(
                "this value has type (...) -> string but it should be a subtype of (...) -> int",
                error("x = (null : int?) ?? \"a\""));
    }

    @Test
    void aNullableValueIsNotItsContent() {
        assertEquals(
                "this value has type int? but it should be a subtype of something that is a"
                        + " number type",
                error("x = (null : int?) + 1"));
        ok("x = (1 : int?)");
    }

    @Test
    void nullAppliedAndItsMethods() {
        type("int?", "x = null(3)");
        type("string", "x = null.default(null(\"a\"), fun () -> \"b\")");
    }

    @Test
    void aFieldThatMayBeAbsentIsNullableWithQuestionDot() {
        type("int?", "r = {a = 1}\nx = r?.a");
        type("int", "r = {a = 1}\nx = r?.a ?? 0");
    }
}
