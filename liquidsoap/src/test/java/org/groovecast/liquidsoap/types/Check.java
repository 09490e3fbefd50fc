package org.groovecast.liquidsoap.types;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.groovecast.liquidsoap.parser.Scripts;

/** Test support: snippets checked against a small table of builtins of our own. */
final class Check {
    private Check() {}

    static final Map<String, String> BUILTINS =
            Map.ofEntries(
                    Map.entry("print", "(?newline : bool, 'a) -> unit"),
                    Map.entry("ignore", "('a) -> unit"),
                    Map.entry("ref", "('a) -> ref('a)"),
                    Map.entry("fst", "(('a * 'b)) -> 'a"),
                    Map.entry("snd", "(('a * 'b)) -> 'b"),
                    Map.entry("string", "('a) -> string"),
                    Map.entry("log", "(?label : string, ?level : int, string) -> unit"),
                    Map.entry("list.map", "(('a) -> 'b, ['a]) -> ['b]"),
                    Map.entry("list.iter", "(('a) -> unit, ['a]) -> unit"),
                    Map.entry("list.length", "(['a]) -> int"),
                    Map.entry("list.hd", "(?default : 'a?, ['a]) -> 'a"),
                    Map.entry("getter.get", "({'a}) -> 'a"),
                    Map.entry("float_of_int", "(int) -> float"),
                    Map.entry(
                            "error.register",
                            "(string) -> error.{kind : string, message : string}"),
                    Map.entry(
                            "sine",
                            "(?id : string?, ?amplitude : {float}, ?duration : float?, ?{float}) ->"
                                    + " source(audio=pcm('a), 'b)"),
                    Map.entry("blank", "(?id : string?, ?duration : float?) -> source('a)"),
                    Map.entry(
                            "amplify",
                            "(?id : string?, ?override : string?, {float}, source(audio=pcm('a),"
                                    + " 'b)) -> source(audio=pcm('a), 'b)"),
                    Map.entry(
                            "mean",
                            "(?id : string?, source(audio=pcm('a), 'b)) -> source(audio=pcm(mono),"
                                    + " 'b)"),
                    Map.entry(
                            "output.file",
                            "(?id : string?, ?fallible : bool, format('a), string, source('a)) ->"
                                    + " unit"),
                    Map.entry(
                            "fallback",
                            "(?id : string?, ?track_sensitive : {bool}, ?transitions :"
                                    + " [(source('a), source('a)) -> source('a)], [source('a)]) ->"
                                    + " source('a)"),
                    Map.entry(
                            "source.tracks",
                            "(source('a)) -> 'a.{metadata : metadata, track_marks : track_marks}"),
                    Map.entry(
                            "source",
                            "(?id : string?, 'a.{track_marks? : track_marks, metadata? :"
                                    + " metadata}) -> source('a) where 'a is a set of tracks to be"
                                    + " muxed into a source"));

    private static TypeChecker checker() {
        return TypeChecker.of(Signatures.of(BUILTINS));
    }

    static TypeChecker.Checked checked(String script) {
        return checker().check(Scripts.parse("t.liq", script, Path.of("."), List.of()));
    }

    /** The message of the error the script is refused with (without its location). */
    static String error(String script) {
        return assertThrows(TypeError.class, () -> checked(script)).detail();
    }

    /** The whole message, with its location. */
    static String located(String script) {
        return assertThrows(TypeError.class, () -> checked(script)).getMessage();
    }

    /** The type of a top-level name after the script, as Liquidsoap prints it. */
    static String typeOf(String script, String name) {
        return checked(script).typeOf(name);
    }

    static void ok(String script) {
        checked(script);
    }

    static void type(String expected, String script) {
        assertEquals(expected, typeOf(script, "x"));
    }
}
