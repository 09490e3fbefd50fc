package org.groovecast.liquidsoap.types;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Types written as Liquidsoap prints them, the registry's form: read, then printed back. */
class SignatureParserTest {
    private static String roundTrip(String text) {
        return TypePrinter.print(SignatureParser.parse(text));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "int",
                "unit",
                "((('a) -> 'b), ['a]) -> ['b]",
                "(?id : string?, format('a), source('a)) -> source('a)",
                "(?id : string?, ?amplitude : {float}, ?{float}) -> source(audio=pcm('a), 'b)",
                "('a, 'a) -> bool where 'a is an orderable type",
                "({bool}, {bool}) -> bool",
                "(() -> 'a).{set : ('a) -> unit}",
                "string.{duration : float, n : int}",
                "{a : int, b? : string}",
                "'a? * int",
                "[string * float] as json.object",
                "source(audio=pcm(stereo), video=canvas('a))",
                "format(audio=pcm(mono))",
                "(source(audio=pcm*, 'b)) -> source(audio=pcm*, 'b)",
                "{\"a b\" as a : int}",
                "{map : 'a.'b.((('a) -> 'b), ['a]) -> ['b]}",
                "(?id : string?, ?{float}) -> unit",
            })
    void readsWhatItPrints(String text) {
        assertEquals(text, roundTrip(text));
    }

    @Test
    void parenthesesAndSpacesAsTheyMayBeWritten() {
        // Liquidsoap prints a function argument in parentheses; a registry need not
        assertEquals("((('a) -> 'b), ['a]) -> ['b]", roundTrip("(('a) -> 'b, ['a]) -> ['b]"));
        assertEquals("source(video=canvas('a))", roundTrip("source(video=canvas)"));
        assertEquals("[string * string]", roundTrip("[(string * string)]"));
        assertEquals("(x : int) -> unit", roundTrip("(x: int)->unit"));
        assertEquals("'a.{foo? : int}", roundTrip("'a.{foo?: int}"));
        assertEquals("(?x : int?) -> int", roundTrip("(?x : int?) -> (int)"));
    }

    @Test
    void theSameNameIsTheSameVariable() {
        Type.Scheme s = SignatureParser.parse("('a, 'b, 'a) -> 'b");
        assertEquals(2, s.generalized().size());
        Type.Arrow f = (Type.Arrow) s.type();
        assertTrue(f.args().get(0).type() == f.args().get(2).type());
    }

    @Test
    void constraintsAreKeptOnTheirVariables() {
        assertEquals(
                "('a, 'b) -> 'a where 'a is a number type, 'b is an orderable type",
                roundTrip("('a, 'b) -> 'a where 'a is a number type, 'b is an orderable type"));
        assertEquals(
                "('a, 'b) -> 'a where 'a, 'b is a number type",
                roundTrip("('a, 'b) -> 'a where 'a, 'b is a number type"));
    }

    @Test
    void aMistakeNamesTheType() {
        IllegalArgumentException e =
                assertThrows(
                        IllegalArgumentException.class, () -> SignatureParser.parse("(int -> int"));
        assertTrue(e.getMessage().startsWith("cannot read the type `(int -> int`"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> SignatureParser.parse("int int"));
        assertThrows(
                IllegalArgumentException.class, () -> SignatureParser.parse("'a where 'a is odd"));
    }

    @Test
    void aRegistryMistakeNamesTheBuiltin() {
        TypeChecker checker = TypeChecker.of(Signatures.of(java.util.Map.of("f", "(int ->")));
        IllegalArgumentException e =
                assertThrows(
                        IllegalArgumentException.class,
                        () ->
                                checker.check(
                                        org.groovecast.liquidsoap.parser.Scripts.parse(
                                                "t.liq",
                                                "f(1)",
                                                java.nio.file.Path.of("."),
                                                java.util.List.of())));
        assertTrue(e.getMessage().startsWith("the signature of f: "), e.getMessage());
    }
}
