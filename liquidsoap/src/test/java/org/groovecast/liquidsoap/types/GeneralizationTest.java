package org.groovecast.liquidsoap.types;

import static org.groovecast.liquidsoap.types.Check.error;
import static org.groovecast.liquidsoap.types.Check.ok;
import static org.groovecast.liquidsoap.types.Check.type;
import static org.groovecast.liquidsoap.types.Check.typeOf;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Let-polymorphism, with Liquidsoap's value restriction and levels. */
class GeneralizationTest {
    @Test
    void aDefinedFunctionIsPolymorphic() {
        type("('a) -> 'a", "def x(v) = v end");
        assertEquals("int", typeOf("def id(v) = v end\nx = id(1)\ny = id(\"a\")", "x"));
        assertEquals("string", typeOf("def id(v) = v end\nx = id(1)\ny = id(\"a\")", "y"));
    }

    @Test
    void anAliasOfAPolymorphicFunctionIsPolymorphicToo() {
        ok("def id(v) = v end\nid2 = id\nignore(id2(3))\nignore(id2(\"a\"))");
    }

    @Test
    void aLocalDefinitionGeneralizesOnlyWhatItIntroduced() {
        // f2 returns the outer x: its type is not generalized inside id2, so id2 is ('a) -> 'a
        type("('a) -> 'a", "def x(v) = def f2(y) = v end\nf2(v) end");
        ok("def f(v) = y = v\ny end\nignore(f(3) + snd(f((1, 2))))");
        assertEquals(
                "this value has type string but it should be a subtype of int",
                error("def f(v) = y = v\ny end\nignore(f(3) + \"3\")"));
    }

    @Test
    void aRecursiveFunctionIsPolymorphicAfterItsDefinition() {
        ok("def rec recid(v) = v end\nignore(recid(3) == 3)\nignore(recid(\"a\") == \"a\")");
        type("(int) -> int", "def rec x(n) = if n <= 0 then 0 else x(n - 1) end end");
    }

    @Test
    void aReferenceIsNotGeneralized() {
        type("(() -> ['A]).{set : (['A]) -> unit}", "x = ref([])");
        assertEquals(
                "this value has type [string] but it should be a subtype of [int]",
                error("r = ref([])\nr.set([1])\nr.set([\"a\"])"));
    }

    @Test
    void anApplicationIsGeneralizedWhenItsResultIsFixedByAMandatoryArgument() {
        // the returned function's type is fixed by its own mandatory argument
        ok("def f() = fun (v) -> v end\ng = f()\nignore(g(1))\nignore(g(\"a\"))");
        // here it is fixed by nothing: x=null is optional
        assertEquals(
                "this value has type string but it should be a subtype of int?",
                error("def f(x=null) = ref(x) end\nr = f()\nr.set(1)\nr.set(\"aabb\")"));
    }

    @Test
    void nullIsAValueOfAnyNullableType() {
        ok("n = null\nx = [1, n]\ny = [\"a\", n]");
    }
}
