package org.groovecast.liquidsoap.prelude;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.groovecast.liquidsoap.eval.Liq;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The standard library a station uses, without an engine. */
class PreludeTest {
    @Test
    void strings() {
        assertEquals("\"a, b\"", Liq.value("string.concat(separator=\", \", [\"a\", \"b\"])"));
        assertEquals(
                "[\"a\", \"b\", \"c\"]", Liq.value("string.split(separator=\",\", \"a,b,c\")"));
        assertEquals("true", Liq.value("string.contains(prefix=\"ab\", \"abc\")"));
        assertEquals("true", Liq.value("string.contains(substring=\"b\", \"abc\")"));
        assertEquals(
                "\"h-ll-\"",
                Liq.value("string.replace(pattern=\"[eo]\", fun (_) -> \"-\", \"hello\")"));
        assertEquals("\"ell\"", Liq.value("string.sub(\"hello\", start=1, length=3)"));
        assertEquals("5", Liq.value("string.length(\"héllo\")"));
        assertEquals("\"abc\"", Liq.value("string.trim(\"  abc \")"));
        assertEquals("\"ABC\"", Liq.value("string.case(lower=false, \"abc\")"));
        assertEquals("\"\\\"a\\\\nb\\\"\"", Liq.value("string.quote(\"a\\nb\")"));
        assertEquals("\"x\"", Liq.value("string.id.default(default=\"x\", \"\")"));
        assertEquals(
                "(\"a\", \"b=c\")", Liq.value("string.split.first(separator=\"=\", \"a=b=c\")"));
    }

    @Test
    void annotateUrisParse() {
        assertEquals(
                "([(\"title\", \"A, B\"), (\"liq_cue_in\", \"3.2\")], \"/music/a.mp3\")",
                Liq.value(
                        "string.annotate.parse(\"title=\\\"A, B\\\",liq_cue_in=3.2:/music/a.mp3\")"));
    }

    @Test
    void lists() {
        assertEquals("[2, 3]", Liq.value("list.filter(fun (x) -> x > 1, [1, 2, 3])"));
        assertEquals("6", Liq.value("list.fold(fun (a, x) -> a + x, 0, [1, 2, 3])"));
        assertEquals("0", Liq.value("list.assoc(default=0, \"z\", [(\"a\", 1)])"));
        assertEquals("1", Liq.value("list.assoc(\"a\", [(\"a\", 1)])"));
        assertTrue(
                Liq.error("list.assoc(\"z\", [(\"a\", 1)])")
                        .contains("no default value for list.assoc"));
        assertEquals(
                "[(\"b\", 2)]", Liq.value("list.assoc.remove(\"a\", [(\"a\", 1), (\"b\", 2)])"));
        assertEquals("[1, 2, 3]", Liq.value("list.sort(fun (a, b) -> a - b, [3, 1, 2])"));
        assertEquals("3", Liq.value("list.index(fun (x) -> x == 0, [1, 2, 3])"));
        assertEquals("[1, 2, 3]", Liq.value("list.sort.natural([3, 1, 2])"));
        assertEquals("\"\"", Liq.value("m = [(\"a\", \"x\")]\nm[\"b\"]"));
        assertEquals("\"x\"", Liq.value("m = [(\"a\", \"x\")]\nm[\"a\"]"));
    }

    @Test
    void numbers() {
        assertEquals("1.0", Liq.value("sign(0.)"));
        assertEquals("-1", Liq.value("sign(-3)"));
        assertEquals("false", Liq.value("nan == nan"));
        assertEquals("255.0", Liq.value("float_of_string(\"0xff\")"));
        assertEquals("3", Liq.value("int_of_float(3.7)"));
        assertEquals("-2.0", Liq.value("floor(-1.5)"));
    }

    @Test
    void json() {
        assertEquals(
                "\"{ \\\"a\\\": 1, \\\"b\\\": [ 1, 2 ] }\"",
                Liq.value("json.stringify({a = 1, b = [1, 2]})"));
        assertEquals("\"{\\\"a\\\":1}\"", Liq.value("json.stringify(compact=true, {a = 1})"));
        assertEquals(
                "{a=1, b=[\"x\"]}",
                Liq.value(
                        "let json.parse (v : {a: int, b: [string]}) = '{\"a\": 1, \"b\": [\"x\"], \"c\": 3}'\nv"));
        assertEquals("null", Liq.value("let json.parse (v : {a: int}?) = '[1]'\nv"));
        assertTrue(
                Liq.error("let json.parse (v : {a: int}) = '[1]'\nv")
                        .contains("cannot be parsed as type {a : int}"));
        assertEquals(
                "\"{ \\\"k\\\": \\\"v\\\" }\"",
                Liq.value("j = json()\nj.add(\"k\", \"v\")\njson.stringify(j)"));
    }

    @Test
    void aJsonValueThatDoesNotFitNamesThePartThatFailed() {
        // as Liquidsoap writes it: the failing field or element, the rest left out
        assertTrue(
                Liq.error(
                                "let json.parse (v : {n: {t: (int * string)}}) ="
                                        + " '{\"n\": {\"t\": [1, 2]}}'\nv")
                        .endsWith("cannot be parsed as type {n: {t: (_,string), _}, _}"));
        assertTrue(
                Liq.error("let json.parse (v : {n: [int]}) = '{\"n\": [1, \"x\"]}'\nv")
                        .endsWith("cannot be parsed as type {n: [int], _}"));
        assertTrue(
                Liq.error("let json.parse (v : {n: int}) = '{\"m\": 1}'\nv")
                        .endsWith("cannot be parsed as type {n: _, _}"));
        // a nullable field that does not fit is null
        assertEquals("{n=null}", Liq.value("let json.parse (v : {n: int?}) = '{\"n\": \"x\"}'\nv"));
    }

    @Test
    void aStringThatIsNoUtf8IsWrittenToJsonAsAReplacementCharacter() {
        assertEquals("\"\\\"\\\\uFFFD\\\"\"", Liq.value("json.stringify(\"\\xE2\")"));
    }

    @Test
    void intRaisesOnANumberThatIsNoIntegerWhenAsked() {
        assertEquals("0", Liq.value("int(nan)"));
        assertTrue(Liq.error("int(raise=true, nan)").contains("no integer"));
        assertTrue(Liq.error("int(raise=true, infinity)").contains("no integer"));
        assertEquals("2", Liq.value("int(raise=true, 2.5)"));
    }

    @Test
    void settingsAreReadAndSetAndScriptsDeclareTheirOwn() {
        Liq liq = new Liq();
        liq.eval("settings.frame.duration := 0.02");
        assertEquals(
                "0.02",
                org.groovecast.liquidsoap.eval.Show.value(liq.eval("settings.frame.duration()")));
        assertEquals(
                "\"https://x\"",
                Liq.value(
                        "let settings.azuracast = ()\n"
                                + "let settings.azuracast.api_url = settings.make(description=\"the API\", \"\")\n"
                                + "settings.azuracast.api_url := \"https://x\"\n"
                                + "settings.azuracast.api_url()"));
        assertEquals("3", Liq.value("settings.foo.bar := 3\nsettings.foo.bar()"));
        assertEquals("false", Liq.value("init.daemon := false\nsettings.init.daemon()"));
        assertEquals("4", Liq.value("log.level := 4\nsettings.log.level()"));
        assertTrue(
                Liq.error("settings.nosuch.thing()")
                        .contains("unknown setting settings.nosuch.thing"));
    }

    @Test
    void predicates() {
        assertEquals(
                "[false, false, true, false]",
                Liq.value(
                        "i = ref(-1)\np = predicate.activates(fun () -> begin ref.incr(i); i() >= 2 end)\n"
                                + "list.init(4, fun (_) -> p())"));
        assertEquals(
                "[true, true, false, true]",
                Liq.value(
                        "p = predicate.at_most(2, {true})\nl = list.init(3, fun (_) -> p())\nl @ fun (l) -> list.append(l, [true])"));
    }

    @Test
    void errorsCarryTheirPlaces() {
        // The raise, then the try that caught it (a call of error.catch in Liquidsoap)
        assertEquals(
                "[\"at test.liq, line 1, char 7-38\", \"at test.liq, line 1, char 0-97\"]",
                Liq.value(
                        "try () error.raise(error.failure, \"x\") catch e do"
                                + " list.map(fun (p) -> p.to_string(), e.trace) end"));
        // Liquidsoap's positions: their lines and characters, and to_string's prefix
        assertEquals(
                "(1, 7, 38, \"test.liq, line 1, char 7-38\")",
                Liq.value(
                        "try () error.raise(error.failure, \"x\") catch e do"
                                + " p = list.hd(e.trace)\n(p.lstart, p.cstart, p.cstop,"
                                + " p.to_string(prefix=\"\")) end"));
    }

    @Test
    void threadRunFunctionsRunWhenDue() throws Exception {
        Liq liq = new Liq();
        liq.eval("r = ref(0)\nthread.run(delay=0.05, fun () -> begin r := 1; shutdown() end)");
        assertTrue(liq.platform().runDue(System.nanoTime() + 5_000_000_000L, e -> {}));
        assertEquals(0, liq.platform().exitCode());
    }

    @Test
    void filesAreReadWrittenAndMoved(@TempDir Path dir) throws Exception {
        Path a = dir.resolve("a.txt");
        Path b = dir.resolve("b.txt");
        Liq.value("file.write(data=\"hello\", \"" + a + "\")");
        assertEquals("hello", Files.readString(a));
        Files.writeString(b, "old");
        assertTrue(Liq.error("file.move(\"" + a + "\", \"" + b + "\")").contains("file exists"));
        Liq.value("file.move(force=true, \"" + a + "\", \"" + b + "\")");
        assertEquals("hello", Files.readString(b));
        assertEquals("\"hello\"", Liq.value("file.contents(\"" + b + "\")"));
        assertEquals("false", Liq.value("file.exists(\"" + a + "\")"));
    }

    @Test
    void whatTheConformanceRunFoundMissing(@TempDir Path dir) throws Exception {
        assertEquals("1684234849", Liq.value("string.binary.to_int(little_endian=true, \"abcd\")"));
        assertEquals(
                "\"abcd\"", Liq.value("string.binary.of_int(little_endian=false, 1633837924)"));
        assertEquals("\"a\\\\'b\"", Liq.value("string.escape(\"a'b\")"));
        assertEquals("true", Liq.value("file.is_directory(\"~\")"));
        Path sub = dir.resolve("a/b");
        Liq.value("file.mkdir(parents=true, \"" + sub + "\")");
        assertTrue(Files.isDirectory(sub));
        Files.writeString(sub.resolve("f"), "x");
        Path copy = dir.resolve("copy");
        Files.createDirectories(copy);
        Liq.value("file.copy(recursive=true, \"" + dir.resolve("a") + "\", \"" + copy + "\")");
        assertEquals("x", Files.readString(copy.resolve("a/b/f")));
        assertTrue(
                Liq.error("list.insert(5, 1, [])")
                        .contains("List should have at least 5 elemments"));
        assertEquals(
                "\"12:00\"",
                Liq.value("time.zone.set(\"UTC\")\ntime.string(time=43200., \"%H:%M\")"));
    }

    @Test
    void theRuntimeAndTheScriptItRuns(@TempDir Path dir) throws Exception {
        assertEquals("true", Liq.value("runtime.memory().process_physical_memory > 0"));
        Path script = dir.resolve("named.liq");
        Files.writeString(
                script,
                "if path.basename(liquidsoap.script.path) == \"named.liq\" then shutdown() else exit(3) end\n");
        Standalone.Outcome o = Standalone.run(java.util.List.of(script), 5, System.out, System.err);
        assertEquals(0, o.code(), String.valueOf(o));
    }

    @Test
    void aStandaloneRunIsTypeCheckedAsOneScriptBeforeAnythingRuns(@TempDir Path dir)
            throws Exception {
        Path prefix = dir.resolve("prefix.liq");
        Path script = dir.resolve("script.liq");
        Files.writeString(prefix, "def twice(x) = x * 2 end\n");
        Files.writeString(script, "print(\"ran\")\nprint(twice(\"a\"))\nshutdown()\n");
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        Standalone.Outcome o =
                Standalone.run(
                        java.util.List.of(prefix, script),
                        5,
                        new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8),
                        System.err);
        assertEquals(1, o.code(), String.valueOf(o));
        assertTrue(o.error().startsWith(script + ":2:"), o.error());
        assertTrue(o.error().contains("this value has type string"), o.error());
        assertEquals("", out.toString(java.nio.charset.StandardCharsets.UTF_8));
    }

    @Test
    void everyNameIsRegisteredWithAWellFormedType() {
        Library lib = Prelude.library(new StandalonePlatform(System.out, System.err));
        Map<String, String> types = lib.types();
        assertTrue(types.size() > 200, "only " + types.size() + " names");
        for (Map.Entry<String, String> e : types.entrySet()) {
            String t = e.getValue();
            assertNotNull(t, e.getKey());
            int depth = 0;
            for (char c : t.toCharArray()) {
                if (c == '(' || c == '[' || c == '{') depth++;
                if (c == ')' || c == ']' || c == '}') depth--;
                assertTrue(depth >= 0, e.getKey() + " : " + t);
            }
            assertEquals(0, depth, e.getKey() + " : " + t);
        }
        assertEquals("(('a) -> 'b, ['a]) -> ['b]", types.get("list.map"));
        assertEquals(
                "(?default : 'a?, 'b, [('b * 'a)]) -> 'a where 'b is an orderable type",
                types.get("list.assoc"));
        assertEquals("(bool) -> unit", types.get("assert"));
    }
}
