package org.groovecast.liquidsoap.parser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.groovecast.liquidsoap.lexer.SourceText;
import org.groovecast.liquidsoap.syntax.Expr;
import org.groovecast.liquidsoap.syntax.Show;
import org.groovecast.liquidsoap.syntax.SyntaxError;
import org.groovecast.liquidsoap.syntax.Warning;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Every production of Liquidsoap 2.4's parser.mly, each with the tree it makes (as {@link Show}
 * prints it), and what the grammar refuses around it.
 */
class ParserTest {

    static Expr.Sequence tree(String text) {
        return Parser.parse(new SourceText("t.liq", text), new ArrayList<>());
    }

    static String p(String text) {
        return Show.of(tree(text));
    }

    static String error(String text) {
        return assertThrows(SyntaxError.class, () -> tree(text)).getMessage();
    }

    @Nested
    class Program {
        @Test
        void emptyAndCommentsOnly() {
            assertEquals("(seq)", p(""));
            assertEquals("(seq)", p("# nothing\n#< at all >#\n"));
        }

        @Test
        void statementsOneAfterTheOtherWithOrWithoutSemicolons() {
            assertEquals("(seq (f) (g) (h))", p("f()\ng(); h()"));
            assertEquals("(seq 1 2)", p("1 2"));
        }

        @Test
        void aBindingScopesOverTheRest() {
            assertEquals(
                    "(seq (binding x 1) (binding _ 2) (print x))", p("x = 1\n_ = 2\nprint(x)"));
        }

        @Test
        void openAppliesToWhatFollows() {
            assertEquals("(seq (open list) (length l))", p("open list\nlength(l)"));
            assertEquals(
                    "t.liq:1:9: syntax error: unexpected end of file, expected the statements `open` applies to",
                    error("open list"));
        }

        @Test
        void doubleSemicolonsAreTheInteractiveLoopsOnly() {
            assertEquals("t.liq:1:1: syntax error: unexpected `;;`", error("1;;"));
        }
    }

    @Nested
    class Definitions {
        @Test
        void binding() {
            assertEquals("(binding x (+ 1 2))", p("x = 1 + 2"));
            assertEquals("(binding _ (f))", p("_ = f()"));
        }

        @Test
        void letWithAPattern() {
            assertEquals("(let (a b) (tuple 1 2))", p("let (a, b) = (1, 2)"));
            assertEquals("(let _ (f))", p("let _ = f()"));
        }

        @Test
        void letWithATypedPattern() {
            assertEquals("(let x : int 1)", p("let (x : int) = 1"));
            assertEquals(
                    "(let json_parse x : {name: string} s)",
                    p("let json.parse (x : {name: string}) = s"));
        }

        @Test
        void letOfAField() {
            assertEquals("(let settings.radio.name \"x\")", p("let settings.radio.name = \"x\""));
        }

        @Test
        void letDecorations() {
            assertEquals("(let replaces x 1)", p("let replaces x = 1"));
            assertEquals("(let eval x \"1\")", p("let eval x = \"1\""));
            assertEquals("(let yaml_parse x s)", p("let yaml.parse x = s"));
            assertEquals("(let xml_parse x s)", p("let xml.parse x = s"));
            assertEquals("(let sqlite_row x s)", p("let sqlite.row x = s"));
            assertEquals("(let sqlite_query x s)", p("let sqlite.query x = s"));
        }

        @Test
        void letJsonParseOptions() {
            assertEquals(
                    "(let json_parse [ json5=true] x s)", p("let json.parse[json5=true] x = s"));
            assertEquals("(let json_parse [ json5=json5] x s)", p("let json.parse [json5] x = s"));
            assertEquals(
                    "t.liq:1:0: syntax error: invalid option `strict` of `let json.parse[...]`: json5 is the only one",
                    error("let json.parse[strict=true] x = s"));
            assertEquals(
                    "t.liq:1:15: syntax error: unexpected `]`, expected an option name",
                    error("let json.parse[] x = s"));
        }

        @Test
        void defOfAValue() {
            assertEquals("(def x (seq (binding y 1) (+ y 1)))", p("def x =\n y = 1\n y + 1\nend"));
            assertEquals("(def x 1)", p("def x 1 end"));
            assertEquals("(def _ 1)", p("def _ = 1 end"));
        }

        @Test
        void defOfATypedValue() {
            assertEquals("(def x : int 1)", p("def (x : int) = 1 end"));
        }

        @Test
        void defOfAField() {
            assertEquals("(def a.b 1)", p("def a.b = 1 end"));
        }

        @Test
        void defOfAFunction() {
            assertEquals("(def f (x y) (+ x y))", p("def f(x, y) = x + y end"));
            assertEquals("(def f () 1)", p("def f() 1 end"));
            assertEquals("(def a.b.f (x) x)", p("def a.b.f(x) = x end"));
        }

        @Test
        void defDecorations() {
            assertEquals("(def recursive f (x) (f x))", p("def rec f(x) = f(x) end"));
            assertEquals("(def replaces f (x) x)", p("def replaces f(x) = x end"));
        }

        @Test
        void aNameOnItsOwnLineBeforeParenthesesIsNotAFunction() {
            assertEquals("(def f (paren x))", p("def f\n(x) end"));
        }

        @Test
        void aFieldIsDefinedWithLetOrDefOnly() {
            assertEquals("t.liq:1:4: syntax error: unexpected `=`", error("x.y = 1"));
        }

        @Test
        void letCannotDefineAFunction() {
            assertEquals(
                    "t.liq:1:4: syntax error: unexpected `f(`, expected a pattern",
                    error("let f(x) = x"));
        }
    }

    @Nested
    class Params {
        @Test
        void positional() {
            assertEquals("(fun (x y=1 (a b) _) x)", p("fun (x, y=1, (a, b), _) -> x"));
            assertEquals(
                    "(fun (x:int y:string=\"a\") x)",
                    p("fun ((x : int), (y : string) = \"a\") -> x"));
        }

        @Test
        void labelled() {
            assertEquals("(fun (~x ~y=1) x)", p("fun (~x, ~y=1) -> x"));
            assertEquals("(fun (~x:int=2) x)", p("fun (~(x : int)=2) -> x"));
            assertEquals("(fun (~x as y ~z as (a b)) y)", p("fun (~x:y, ~z:(a, b)) -> y"));
            assertEquals("(fun (~x as y:int=1) y)", p("fun (~x:(y : int)=1) -> y"));
            assertEquals("(fun (~x as {a}) a)", p("fun (~x:{a}) -> a"));
        }

        @Test
        void labelledIgnoredTheOldWay() {
            List<Warning> warnings = new ArrayList<>();
            Expr.Sequence s = Parser.parse(new SourceText("t.liq", "fun (~x=_) -> 1"), warnings);
            assertEquals("(fun (~x as _) 1)", Show.of(s));
            assertEquals(
                    "t.liq:1:5: warning: deprecated: use `~x:_`", warnings.getFirst().toString());
        }

        @Test
        void argsOf() {
            assertEquals("(fun (%argsof(f)) 1)", p("fun (%argsof(f)) -> 1"));
            assertEquals("(fun (%argsof(a.b.f)) 1)", p("fun (%argsof(a.b.f)) -> 1"));
            assertEquals("(fun (%argsof(f[x,z,!y])) 1)", p("fun (%argsof(f[x, !y, z])) -> 1"));
            assertEquals("(fun (%argsof(a.f[!x])) 1)", p("fun (%argsof(a.f[!x])) -> 1"));
        }

        @Test
        void trailingCommaAndNone() {
            assertEquals("(fun (x) x)", p("fun (x,) -> x"));
            assertEquals("(fun () 1)", p("fun () -> 1"));
        }

        @Test
        void theOldOptionalSyntaxIsGone() {
            assertEquals(
                    "t.liq:1:5: syntax error: unexpected `?`, expected a pattern",
                    error("fun (?y=1) -> y"));
        }
    }

    @Nested
    class Patterns {
        @Test
        void tuples() {
            assertEquals("(let () (tuple))", p("let () = ()"));
            assertEquals("(let (a) x)", p("let (a) = x"));
            assertEquals("(let (a (b c)) x)", p("let (a, (b, c)) = x"));
            // pattern_list admits a leading comma
            assertEquals("(let (a) x)", p("let (, a) = x"));
        }

        @Test
        void lists() {
            assertEquals("(let [x ...rest ] l)", p("let [x, ...rest] = l"));
            assertEquals("(let [ ..._ ] l)", p("let [...] = l"));
            assertEquals("(let [ ...r z] l)", p("let [...r, z] = l"));
            assertEquals("(let [x y ..._ z] l)", p("let [x, y, ..._, z] = l"));
            assertEquals("(let [x y] l)", p("let [x, y] = l"));
            assertEquals("(let [] l)", p("let [] = l"));
            assertEquals("(let [ ...r ] l)", p("let [...r,] = l"));
        }

        @Test
        void records() {
            assertEquals("(let {audio=a} x)", p("let { audio = a } = x"));
            assertEquals("(let {a b? c=(d e)} x)", p("let {a, b?, c = (d, e)} = x"));
            assertEquals("(let {a ...rest} x)", p("let {a, ...rest} = x"));
            assertEquals("(let { ..._} x)", p("let {...} = x"));
            assertEquals("(let {a} x)", p("let {a,} = x"));
            assertEquals("(let {} x)", p("let {} = x"));
        }

        @Test
        void valuesWithFields() {
            assertEquals("(let v.{a b} x)", p("let v.{a, b} = x"));
            assertEquals("(let _.{a} x)", p("let _.{a} = x"));
            assertEquals("(let (a b).{c} x)", p("let (a, b).{c} = x"));
            assertEquals("(let [a].{c} x)", p("let [a].{c} = x"));
        }

        @Test
        void aSpreadOnlyInAPlainRecordPattern() {
            assertEquals(
                    "t.liq:1:7: syntax error: unexpected `...`, expected a field name",
                    error("let v.{...r} = x"));
        }
    }

    @Nested
    class Calls {
        @Test
        void positionalAndLabelled() {
            assertEquals("(f x=1 y)", p("f(x=1, y)"));
            assertEquals("(f)", p("f()"));
            assertEquals("(f 1)", p("f(1,)"));
        }

        @Test
        void argsOfPassesParametersOn() {
            assertEquals("(f %argsof(g) x=1)", p("f(%argsof(g), x=1)"));
            assertEquals("(f %argsof(a.g))", p("f(%argsof(a.g))"));
            assertEquals("(f %argsof(g[a,!b]))", p("f(%argsof(g[a, !b]))"));
            assertEquals("(f %argsof(a.g[a]))", p("f(%argsof(a.g[a]))"));
        }

        @Test
        void methodsAndFields() {
            assertEquals("(. (. x (f 1)) g)", p("x.f(1).g"));
            assertEquals("(. s (on_metadata h))", p("s.on_metadata(h)"));
            assertEquals("(?. x y)", p("x?.y"));
            assertEquals("(?. x (f 1))", p("x?.f(1)"));
            assertEquals("(. r end)", p("r.end"));
        }

        @Test
        void onlyNamesAreApplied() {
            // a call is a name glued to its parenthesis: anything else followed by (...) is two
            assertEquals("(seq (f x) (paren y))", p("f(x)(y)"));
            assertEquals("(seq f (paren x))", p("f\n(x)"));
        }

        @Test
        void nullAndUnderscoreCalls() {
            assertEquals("(_null)", p("null()"));
            assertEquals("(. _null foo)", p("null.foo"));
        }

        @Test
        void settings() {
            assertEquals("(:= (. (. settings x) y) 3)", p("settings.x.y := 3"));
            assertEquals("(. (. settings x) (y))", p("settings.x.y()"));
        }

        @Test
        void indexes() {
            assertEquals("([] l 0)", p("l[0]"));
            assertEquals("([] (. r l) \"k\")", p("r.l[\"k\"]"));
        }
    }

    @Nested
    class Literals {
        @Test
        void scalars() {
            assertEquals("(seq 1 1.5 true false null)", p("1 1.5 true false null"));
            assertEquals("\"a\"", p("\"a\""));
            assertEquals("'a'", p("'a'"));
            assertEquals("{str|x|str}", p("{str|x|str}"));
            assertEquals("r/a+/g", p("r/a+/g"));
        }

        @Test
        void unitTuplesAndParentheses() {
            assertEquals("(tuple)", p("()"));
            assertEquals("(tuple 1 2 3)", p("(1, 2, 3)"));
            assertEquals("(paren 1)", p("(1)"));
            assertEquals("(cast x int)", p("(x : int)"));
        }

        @Test
        void lists() {
            assertEquals("[1 2 ...l 3]", p("[1, 2, ...l, 3]"));
            assertEquals("[]", p("[]"));
            assertEquals("[1]", p("[1,]"));
            assertEquals(
                    "t.liq:1:1: syntax error: unexpected `,`, expected an expression",
                    error("[,]"));
        }

        @Test
        void records() {
            assertEquals("(record a=1 b=2)", p("{ a = 1, b = 2 }"));
            assertEquals("(record a=1)", p("{ a = 1, }"));
            assertEquals("(record ...r a=1)", p("{ ...r, a = 1 }"));
            assertEquals("(record)", p("{}"));
        }

        @Test
        void fieldsAddedToAValue() {
            assertEquals("(record r with y=2)", p("r.{ y = 2 }"));
            assertEquals("(record r with y=2 ...s)", p("r.{ y = 2, ...s, }"));
            assertEquals("(record 3 with x=1)", p("3.{x = 1}"));
        }

        @Test
        void interpolation() {
            assertEquals("(interp \"a \" (+ x 1) \" b\")", p("\"a #{x + 1} b\""));
            assertEquals("(interp x)", p("\"#{x}\""));
            assertEquals("(interp 'n=' (f \"a\"))", p("'n=#{f(\"a\")}'"));
        }

        @Test
        void getters() {
            assertEquals("{(+ x 1)}", p("{ x + 1 }"));
            assertEquals("{(seq (let y 1) (+ y 1))}", p("{ let y = 1 y + 1 }"));
            assertEquals("{(seq (def f () 1) (f))}", p("{ def f() = 1 end f() }"));
            assertEquals("{(seq (open m) x)}", p("{ open m x }"));
        }

        @Test
        void aGetterMayBeOnlyADefinition() {
            assertEquals("{(let x 1)}", p("{ let x = 1 }"));
        }

        @Test
        void aGetterCannotStartWithAPlainBinding() {
            assertEquals(
                    "t.liq:1:2: syntax error: unexpected `_`, expected an expression",
                    error("{ _ = 1 }"));
        }

        @Test
        void timePredicates() {
            assertEquals("{(interval 8h 12h)}", p("{ 8h-12h }"));
            assertEquals("{(time 0m)}", p("{ 0m }"));
            assertEquals(
                    "{(or (paren (and (time 1w) (time 2h))) (time 12h30m))}",
                    p("{ (1w and 2h) or 12h30m }"));
            assertEquals("(time 12h30m)", p("12h30"));
        }

        @Test
        void timesAreDigitsOnly() {
            assertEquals("t.liq:1:0: syntax error: invalid time `1_0h`", error("1_0h"));
        }
    }

    @Nested
    class Operators {
        @Test
        void arithmetic() {
            assertEquals("(+ 1 (* 2 3))", p("1 + 2 * 3"));
            assertEquals("(- (- 1 2) 3)", p("1 - 2 - 3"));
            assertEquals("(/ (* (mod 1 2) 3) 4)", p("1 mod 2 * 3 / 4"));
            assertEquals("(+. (*. 1. 2.) (/. 3. 4.))", p("1. *. 2. +. 3. /. 4."));
            assertEquals("(-. 1. 2.)", p("1. -. 2."));
            assertEquals("(^ (^ \"a\" \"b\") \"c\")", p("\"a\" ^ \"b\" ^ \"c\""));
            assertEquals("(% a b)", p("a % b"));
        }

        @Test
        void comparisonsAndBooleans() {
            assertEquals("(or (< a b) (>= c d))", p("a < b or c >= d"));
            assertEquals("(and a b c)", p("a and b and c"));
            assertEquals("(or a b c)", p("a or b or c"));
            // and binds looser than or, as parser.mly declares
            assertEquals("(and a (or b c))", p("a and b or c"));
            assertEquals("(not (== a b))", p("not a == b"));
            assertEquals("(or (not a) b)", p("not a or b"));
            assertEquals("(!= (== a b) c)", p("a == b != c"));
        }

        @Test
        void unaryMinus() {
            assertEquals("(neg 1)", p("-1"));
            assertEquals("(- x (neg 1))", p("x - -1"));
            assertEquals("(. (neg x) y)", p("-x.y"));
            assertEquals("(neg (f x))", p("-f(x)"));
            assertEquals("(seq (binding x 1) (neg 1))", p("x = 1\n-1"));
            assertEquals("(seq ([] l 0) (neg 1))", p("l[0] -1"));
            assertEquals("(binding x (- 1 1))", p("x = 1 # comment\n-1"));
        }

        @Test
        void minusBeforeAParenthesis() {
            assertEquals("(binding x (neg (paren 1)))", p("x = -(1)"));
            assertEquals("(- x (paren 1))", p("x -(1)"));
            assertEquals("(- (f) (paren 1))", p("f() -(1)"));
            assertEquals("(seq (paren x) (neg (paren 1)))", p("(x)\n-(1)"));
            assertEquals("(seq [x] (neg (paren 1)))", p("[x] -(1)"));
        }

        @Test
        void references() {
            assertEquals(
                    "(seq (binding x (ref 0)) (:= x (+ (x) 1)) (! x))",
                    p("x = ref(0)\nx := x() + 1\n!x"));
            assertEquals("(:= x (:= y 1))", p("x := y := 1"));
            assertEquals("(! (. x y))", p("!x.y"));
            assertEquals("(:: (! x) l)", p("!x :: l"));
        }

        @Test
        void nullable() {
            assertEquals("(?? x d)", p("x ?? d"));
            assertEquals("(== (?? x y) z)", p("x ?? y == z"));
            assertEquals("(?? x (?. y z))", p("x ?? y?.z"));
            assertEquals(
                    "t.liq:1:7: syntax error: unexpected `??`: write `a ?? (b ?? c)`, `??` does not chain",
                    error("x ?? y ?? z"));
        }

        @Test
        void cons() {
            assertEquals("(:: a (:: b c))", p("a :: b :: c"));
            assertEquals("(?. (:: a b) c)", p("a :: b?.c"));
        }

        @Test
        void at() {
            assertEquals("(== (@ x f) y)", p("x @ f == y"));
        }

        @Test
        void inlineIf() {
            assertEquals("(?: c a b)", p("c ? a : b"));
            // the else branch takes nothing after it, as parser.mly's precedence of `:` says
            assertEquals("(+ (?: c a b) 1)", p("c ? a : b + 1"));
            assertEquals("(?: (== x 1) (+ a 1) b)", p("x == 1 ? a + 1 : b"));
            assertEquals("(:= a (?: b c d))", p("a := b ? c : d"));
            assertEquals("(?: (and a b) c d)", p("a and b ? c : d"));
            assertEquals("(?: a (?: b c d) e)", p("a ? b ? c : d : e"));
        }

        @Test
        void functions() {
            assertEquals("(fun (x) (+ x 1))", p("fun (x) -> x + 1"));
            assertEquals("(fun () (begin 1))", p("fun () -> begin 1 end"));
            assertEquals("(fun () (:= x 1))", p("fun () -> x := 1"));
            assertEquals("(f (fun (x) x) 2)", p("f(fun (x) -> x, 2)"));
        }
    }

    @Nested
    class Control {
        @Test
        void ifElsifElse() {
            assertEquals("(if a b)", p("if a then b end"));
            assertEquals(
                    "(if a b elsif c d elsif e f else g)",
                    p("if a then b elsif c then d elsif e then f else g end"));
            assertEquals(
                    "(if (seq (binding x 1) (== x 1)) (tuple))", p("if x = 1 x == 1 then () end"));
        }

        @Test
        void loops() {
            assertEquals(
                    "(while (< (x) 10) (:= x (+ (x) 1)))", p("while x() < 10 do x := x() + 1 end"));
            assertEquals("(for i 1 n (print i))", p("for i = 1 to n do print(i) end"));
            assertEquals("(for _ 1 n (f))", p("for _ = 1 to n do f() end"));
            assertEquals(
                    "(foreach x (. list (iterator l)) (print x))",
                    p("for x = list.iterator(l) do print(x) end"));
        }

        @Test
        void tryForms() {
            assertEquals("(try (f) _ finally (g))", p("try f() finally g() end"));
            assertEquals(
                    "(try (f) err catch (print err))", p("try f() catch err do print(err) end"));
            assertEquals("(try (f) _ catch (tuple))", p("try f() catch _ do () end"));
            assertEquals(
                    "(try (f) err : [(. error kind)] catch (print err))",
                    p("try f() catch err : [error.kind] do print(err) end"));
            assertEquals(
                    "(try (f) err : [] catch (g) finally (h))",
                    p("try f() catch err : [] do g() finally h() end"));
            assertEquals(
                    "(try (f) e catch (g) finally (h))",
                    p("try f() catch e do g() finally h() end"));
        }

        @Test
        void blocks() {
            assertEquals("(begin (seq 1 2))", p("begin 1 2 end"));
            assertEquals(
                    "t.liq:1:6: syntax error: unexpected `end`, expected an expression",
                    error("begin end"));
        }
    }

    @Nested
    class Types {
        static String t(String type) {
            Expr.Cast cast = (Expr.Cast) tree("(x : " + type + ")").items().getFirst();
            return Show.type(cast.type());
        }

        @Test
        void namedNullableListsTuples() {
            assertEquals("int", t("int"));
            assertEquals("_", t("_"));
            assertEquals("int?", t("int?"));
            assertEquals("[string]", t("[string]"));
            assertEquals("(int * string * float)", t("(int * string * float)"));
        }

        @Test
        void jsonObjects() {
            assertEquals("(json.object int)", t("[(string * int)] as json.object"));
            assertEquals(
                    "t.liq:1:5: syntax error: invalid type: only `[(string * t)] as json.object` is",
                    error("(x : [(int * int)] as json.object)"));
        }

        @Test
        void functions() {
            assertEquals("(() -> unit)", t("() -> unit"));
            assertEquals(
                    "((int, ?label:string, x:float) -> bool)",
                    t("(int, ?label : string, x : float) -> bool"));
            assertEquals("((int) -> int?)", t("(int) -> int?"));
            assertEquals("((int) -> int)", t("(int,) -> int"));
            assertEquals(
                    "t.liq:1:10: syntax error: unexpected `)`, expected `->` and the result type (a type in parentheses is a function's)",
                    error("(x : (int))"));
        }

        @Test
        void recordsAndMethods() {
            assertEquals("{a: int, b?: string}", t("{a: int, b?: string}"));
            assertEquals(
                    "{\"x-y\" as xy: int, \"k\" as k?: int}",
                    t("{\"x-y\" as xy: int, \"k\" as k?: int}"));
            assertEquals("{}", t("{}"));
            assertEquals("{a: int}", t("{a: int,}"));
            assertEquals("int.{a: int}", t("int.{a: int}"));
            assertEquals("int?.{a: int}", t("int?.{a: int}"));
            assertEquals("source.x", t("source.x"));
            assertEquals(
                    "t.liq:1:10: syntax error: invalid type: expected `as`",
                    error("(x : {\"a\" is b: int})"));
        }

        @Test
        void sources() {
            assertEquals("source()", t("source()"));
            assertEquals("source(...)", t("source(...)"));
            assertEquals("source(audio=pcm,...)", t("source(audio=pcm, ...)"));
            assertEquals(
                    "source(audio=pcm(stereo),video=canvas)",
                    t("source(audio=pcm(stereo), video=canvas)"));
            assertEquals("source(audio=pcm)", t("source(audio=pcm())"));
            assertEquals("source(audio=audio.copy)", t("source(audio=audio.copy)"));
            assertEquals("source(audio=ffmpeg.audio.raw)", t("source(audio=ffmpeg.audio.raw)"));
            assertEquals(
                    "source(audio=ffmpeg.copy(codec=\"aac\"))",
                    t("source(audio=ffmpeg.copy(codec=\"aac\"))"));
            assertEquals("source(audio=a.b.c(x))", t("source(audio=a.b.c(x))"));
            assertEquals(
                    "source(audio=pcm(stereo,2,1.5,\"x\",channels=2,layout=\"5.1\",rate=4.5,mode=m))",
                    t(
                            "source(audio=pcm(stereo, 2, 1.5, \"x\", channels=2, layout=\"5.1\", rate=4.5, mode=m,))"));
        }
    }

    @Nested
    class Encoders {
        @Test
        void bareAndWithParameters() {
            assertEquals("%mp3", p("%mp3"));
            assertEquals("%audio.copy", p("%audio.copy"));
            assertEquals("(%mp3 bitrate=128 stereo)", p("%mp3(bitrate=128, stereo)"));
            assertEquals(
                    "(%fdkaac \"aot\"=\"mpeg4_he_aac_v2\" \"mono\")",
                    p("%fdkaac(\"aot\"=\"mpeg4_he_aac_v2\", \"mono\")"));
            assertEquals("%mp3", p("%mp3()"));
            assertEquals("(%mp3 stereo)", p("%mp3(stereo,)"));
        }

        @Test
        void nested() {
            assertEquals(
                    "(%ffmpeg format=\"mpegts\" (%audio codec=\"aac\" b=\"64k\") %video.none)",
                    p("%ffmpeg(format=\"mpegts\", %audio(codec=\"aac\", b=\"64k\"), %video.none)"));
        }

        @Test
        void theParenthesisBelongsToTheEncoderEvenOnTheNextLine() {
            assertEquals(
                    "t.liq:2:1: syntax error: unexpected `1`, expected an encoder parameter (`name=value`, `name` or `%encoder`)",
                    error("%mp3\n(1)"));
        }
    }

    @Nested
    class Directives {
        @Test
        void includeIsKeptWithoutAReader() {
            assertEquals("(include file a.liq)", p("%include \"a.liq\""));
            assertEquals("(include extra a.liq)", p("%include_extra \"a.liq\""));
            assertEquals("(include library a.liq)", p("%include <a.liq>"));
        }

        @Test
        void ifdef() {
            assertEquals("(ifdef input.alsa (binding x 1))", p("%ifdef input.alsa\nx = 1\n%endif"));
            assertEquals(
                    "(ifndef foo (binding x 1) else (binding y 2))",
                    p("%ifndef foo\nx = 1\n%else\ny = 2\n%endif"));
        }

        @Test
        void ifencoder() {
            assertEquals("(ifencoder mp3 (binding x 1))", p("%ifencoder %mp3\nx = 1\n%endif"));
            assertEquals("(ifnencoder mp3 1 else 2)", p("%ifnencoder %mp3 1 %else 2 %endif"));
        }

        @Test
        void ifversion() {
            assertEquals("(ifversion >= 2.4.0 1)", p("%ifversion >= 2.4.0\n1\n%endif"));
            assertEquals("(ifversion < 2 1 else 2)", p("%ifversion < 2 1 %else 2 %endif"));
            assertEquals("(ifversion == 2.4 1)", p("%ifversion == 2.4 1 %endif"));
            assertEquals(
                    "t.liq:1:11: syntax error: unexpected `!=`, expected a comparison (`==`, `<`, `<=`, `>`, `>=`)",
                    error("%ifversion != 2.4.0 1 %endif"));
        }

        @Test
        void bothBranchesMustParse() {
            assertEquals(
                    "t.liq:2:0: syntax error: unexpected `)`, expected an expression",
                    error("%ifdef foo\n)\n%endif"));
        }
    }
}
