package org.groovecast.liquidsoap.lexer;

import static org.groovecast.liquidsoap.lexer.Tokens.lexed;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.groovecast.liquidsoap.syntax.SyntaxError;
import org.groovecast.liquidsoap.syntax.Warning;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Liquidsoap 2.4's tokens, as its lexer.ml makes them (longest match, then the first rule). */
class LexerTest {

    @Nested
    class Names {
        @Test
        void namesAndKeywords() {
            assertEquals(
                    List.of(
                            "VAR:x",
                            "VAR:_x",
                            "VAR:__",
                            "VAR:x'",
                            "VAR:été",
                            "UNDERSCORE:_",
                            "DEF:def",
                            "END:end"),
                    lexed("x _x __ x' été _ def end"));
            assertEquals(
                    List.of(
                            "BOOL:true",
                            "BOOL:false",
                            "BIN3:mod",
                            "AND:and",
                            "OR:or",
                            "NOT:not",
                            "OPEN:open"),
                    lexed("true false mod and or not open"));
            assertEquals(
                    List.of(
                            "WHILE:while",
                            "FOR:for",
                            "TO:to",
                            "DO:do",
                            "TRY:try",
                            "CATCH:catch",
                            "FINALLY:finally"),
                    lexed("while for to do try catch finally"));
            assertEquals(
                    List.of(
                            "IF:if",
                            "THEN:then",
                            "ELSIF:elsif",
                            "ELSE:else",
                            "BEGIN:begin",
                            "FUN:fun",
                            "NULL:null"),
                    lexed("if then elsif else begin fun null"));
        }

        @Test
        void aKeywordInsideALongerNameIsAName() {
            assertEquals(
                    List.of("VAR:endx", "VAR:do_it", "VAR:nullable"), lexed("endx do_it nullable"));
        }

        @Test
        void aDotBeforeANameSplitsIntoDotAndName() {
            // so a field may be named like a keyword
            assertEquals(
                    List.of("VAR:output", "DOT:.", "VAR:icecast", "DOT:.", "VAR:end"),
                    lexed("output.icecast.end"));
            assertEquals(List.of("VAR:x", "DOT:.", "VAR:y"), lexed("x . y"));
        }

        @Test
        void nullDotIsTheNameUnderscoreNull() {
            assertEquals(List.of("VAR:_null", "DOT:.", "VAR:defined"), lexed("null.defined"));
        }

        @Test
        void aSymbolCharacterIsAName() {
            assertEquals(List.of("VAR:♫"), lexed("♫"));
        }

        @Test
        void decoratedDefinitions() {
            List<Token> t =
                    Tokens.all(
                            "def rec f let replaces x let json.parse[ let json.parse y",
                            new ArrayList<>());
            assertEquals(TokenKind.DEF, t.get(0).kind());
            assertEquals("rec", t.get(0).extra());
            assertEquals("replaces", t.get(2).extra());
            assertEquals(TokenKind.LETLBRA, t.get(4).kind());
            assertEquals(TokenKind.LET, t.get(5).kind());
            assertEquals("json.parse", t.get(5).extra());
            assertEquals(
                    List.of(
                            "LET:let eval",
                            "VAR:x",
                            "LET:let yaml.parse",
                            "VAR:y",
                            "LET:let xml.parse",
                            "VAR:z"),
                    lexed("let eval x let yaml.parse y let xml.parse z"));
            assertEquals(
                    List.of("LET:let sqlite.row", "VAR:r", "LET:let sqlite.query", "VAR:q"),
                    lexed("let sqlite.row r let sqlite.query q"));
        }

        @Test
        void aDecorationNeedsSpaceAfterIt() {
            assertEquals(List.of("DEF:def", "VAR:recx"), lexed("def recx"));
            assertEquals(List.of("DEF:def", "VAR:rec", "PP_ENDL:\n", "VAR:f"), lexed("def rec\nf"));
        }
    }

    @Nested
    class Numbers {
        @Test
        void integers() {
            assertEquals(
                    List.of("INT:12", "INT:0x1F", "INT:0o17", "INT:0b101", "INT:1_000"),
                    lexed("12 0x1F 0o17 0b101 1_000"));
        }

        @Test
        void floats() {
            assertEquals(
                    List.of(
                            "FLOAT:1.5",
                            "FLOAT:.5",
                            "FLOAT:2.",
                            "FLOAT:1e-3",
                            "FLOAT:1.5E+10",
                            "FLOAT:1.e5"),
                    lexed("1.5 .5 2. 1e-3 1.5E+10 1.e5"));
        }

        @Test
        void anEFollowedByDigitsIsAFloatAsInLiquidsoap() {
            assertEquals(List.of("FLOAT:e5", "FLOAT:e+5", "VAR:e5x"), lexed("e5 e+5 e5x"));
        }

        @Test
        void anIntegerWithFieldsIsNotAFloat() {
            assertEquals(List.of("INT:3", "DOT:.", "LCUR:{", "VAR:x"), lexed("3.{x"));
        }

        @Test
        void versions() {
            assertEquals(List.of("VERSION:2.4.0", "VERSION:2.4.0+git"), lexed("2.4.0 2.4.0+git"));
        }

        @Test
        void times() {
            assertEquals(
                    List.of(
                            "TIME:8h",
                            "TIME:12h30m",
                            "TIME:12h30",
                            "TIME:0m",
                            "TIME:1w",
                            "TIME:10s",
                            "TIME:1w2h3m4s"),
                    lexed("8h 12h30m 12h30 0m 1w 10s 1w2h3m4s"));
        }

        @Test
        void intervals() {
            assertEquals(List.of("INTERVAL:8h-12h", "INTERVAL:0m - 30m"), lexed("8h-12h 0m - 30m"));
        }

        @Test
        void timeUnitsOutOfOrderEndTheTime() {
            assertEquals(List.of("TIME:1m", "INT:2"), lexed("1m2"));
            assertEquals(List.of("TIME:10m", "VAR:od"), lexed("10mod"));
        }
    }

    @Nested
    class Strings {
        @Test
        void bothQuotesAndTheirEscapes() {
            List<Token> t = Tokens.all("\"a\\\"b\" 'c\"d'", new ArrayList<>());
            assertEquals("a\\\"b", t.get(0).text());
            assertEquals("\"", t.get(0).extra());
            assertEquals("c\"d", t.get(1).text());
            assertEquals("'", t.get(1).extra());
        }

        @Test
        void aStringMaySpanLines() {
            assertEquals(List.of("STRING:a\nb"), lexed("\"a\nb\""));
        }

        @Test
        void rawStrings() {
            List<Token> t = Tokens.all("{str_x|a \"b\" |str_y} c|str_x} {|x|}", new ArrayList<>());
            assertEquals(TokenKind.RAW_STRING, t.get(0).kind());
            assertEquals("a \"b\" |str_y} c", t.get(0).text());
            assertEquals("str_x", t.get(0).extra());
            assertEquals("x", t.get(1).text());
        }

        @Test
        void regularExpressions() {
            List<Token> t = Tokens.all("r/a\\/b/gi r/x/", new ArrayList<>());
            assertEquals("REGEXP:a\\/b", TokenKind.REGEXP + ":" + t.get(0).text());
            assertEquals("gi", t.get(0).extra());
            assertEquals("", t.get(1).extra());
        }

        @Test
        void interpolationLexesTheCodeInside() {
            assertEquals(
                    List.of(
                            "BEGIN_INTERPOLATION",
                            "INTERPOLATED_STRING:a ",
                            "VAR:f",
                            "LPAR:(",
                            "VAR:x",
                            "BIN2:+",
                            "INT:1",
                            "RPAR:)",
                            "INTERPOLATED_STRING: b",
                            "END_INTERPOLATION"),
                    lexed("\"a #{f(x+1)} b\""));
        }

        @Test
        void interpolatedCodeHasItsOwnPositions() {
            List<Token> t = Tokens.all("  \"ab #{x}\"", new ArrayList<>());
            Token x = t.get(2);
            assertEquals("x", x.text());
            assertEquals(1, x.span().line());
            assertEquals(8, x.span().column());
        }

        @Test
        void escapedQuotesInsideInterpolation() {
            assertEquals(
                    List.of(
                            "BEGIN_INTERPOLATION",
                            "VAR:f",
                            "LPAR:(",
                            "STRING:a",
                            "RPAR:)",
                            "END_INTERPOLATION"),
                    lexed("\"#{f(\\\"a\\\")}\""));
        }

        @Test
        void withoutClosingBraceThereIsNoInterpolation() {
            assertEquals(List.of("STRING:#{x"), lexed("\"#{x\""));
        }

        @Test
        void aStrayBackslashIsAWarningAtItsPlace() {
            List<Warning> warnings = new ArrayList<>();
            Tokens.all("x = \"a\\qb\"", warnings);
            assertEquals(1, warnings.size());
            assertEquals("t.liq:1:6", warnings.getFirst().span().toString());
        }
    }

    @Nested
    class Encoders {
        @Test
        void encodersAndPercentKeywords() {
            assertEquals(
                    List.of("ENCODER:mp3", "ENCODER:audio.copy", "ENCODER:ffmpeg", "BIN2:%"),
                    lexed("%mp3 %audio.copy %ffmpeg %"));
            assertEquals(
                    List.of(
                            "PP_IFDEF:%ifdef",
                            "PP_IFDEF:%ifndef",
                            "PP_IFENCODER:%ifencoder",
                            "PP_IFENCODER:%ifnencoder"),
                    lexed("%ifdef %ifndef %ifencoder %ifnencoder"));
            assertEquals(
                    List.of(
                            "PP_IFVERSION:%ifversion",
                            "PP_ELSE:%else",
                            "PP_ENDIF:%endif",
                            "ARGS_OF:%argsof",
                            "ENCODER:ifdefx"),
                    lexed("%ifversion %else %endif %argsof %ifdefx"));
        }

        @Test
        void includes() {
            List<Token> t =
                    Tokens.all(
                            "%include \"a b.liq\"\n%include_extra \"x\"\n%include <lib.liq>",
                            new ArrayList<>());
            assertEquals("a b.liq", t.get(0).text());
            assertEquals("FILE", t.get(0).extra());
            assertEquals("EXTRA", t.get(2).extra());
            assertEquals("lib.liq", t.get(4).text());
            assertEquals("LIBRARY", t.get(4).extra());
        }
    }

    @Nested
    class Operators {
        @Test
        void allOfThem() {
            assertEquals(
                    List.of(
                            "SET::=",
                            "COALESCE:??",
                            "QUESTION_DOT:?.",
                            "QUESTION:?",
                            "DOTDOTDOT:...",
                            "YIELDS:->",
                            "TILD:~",
                            "COLONCOLON:::",
                            "COLON::",
                            "SEQSEQ:;;",
                            "SEQ:;",
                            "AT:@",
                            "GET:!",
                            "GETS:="),
                    lexed(":= ?? ?. ? ... -> ~ :: : ;; ; @ ! ="));
            assertEquals(
                    List.of("BIN1:==", "BIN1:!=", "BIN1:<", "BIN1:<=", "BIN1:>", "BIN1:>="),
                    lexed("== != < <= > >="));
            assertEquals(
                    List.of(
                            "BIN2:+", "BIN2:^", "BIN2:+.", "BIN2:-.", "MINUS:-", "TIMES:*",
                            "BIN3:*.", "BIN3:/", "BIN3:/."),
                    lexed("+ ^ +. -. - * *. / /."));
        }
    }

    @Nested
    class Comments {
        @Test
        void aLineCommentTakesItsLineBreak() {
            assertEquals(List.of("VAR:f", "LPAR:("), lexed("f # call\n("));
        }

        @Test
        void commentLinesBelowContinueIt() {
            assertEquals(List.of("VAR:x", "PP_ENDL:\n", "VAR:y"), lexed("x\n# a\n  # b\ny"));
        }

        @Test
        void blockCommentsNest() {
            assertEquals(
                    List.of("VAR:x", "PP_ENDL:\n", "VAR:y"), lexed("x #< a #< b >#\n c >#\ny"));
        }

        @Test
        void aCommentOnTheLastLineEndsTheFileEvenWithABlockInIt() {
            assertEquals(List.of("VAR:x"), lexed("x #< a ># y"));
        }
    }

    @Nested
    class Positions {
        @Test
        void linesFromOneColumnsFromZeroInBytes() {
            List<Token> t = Tokens.all("x\n  été = 1", new ArrayList<>());
            Token value = t.get(4);
            assertEquals("1", value.text());
            assertEquals(2, value.span().line());
            // "  été = " is 10 bytes: é is two
            assertEquals(10, value.span().column());
            assertEquals(11, value.span().endColumn());
        }

        @Test
        void aByteOrderMarkIsNothingButCountsInTheColumns() {
            List<Token> t = Tokens.all("\uFEFFx", new ArrayList<>());
            assertEquals("x", t.getFirst().text());
            assertEquals(3, t.getFirst().span().column());
        }

        @Test
        void aCarriageReturnIsSpace() {
            assertEquals(List.of("VAR:x", "PP_ENDL:\n", "VAR:y"), lexed("x\r\ny"));
        }
    }

    @Nested
    class Errors {
        @Test
        void unclosedString() {
            SyntaxError e = assertThrows(SyntaxError.class, () -> lexed("x = \"abc"));
            assertEquals("t.liq:1:4: syntax error: string is not closed", e.getMessage());
        }

        @Test
        void unclosedBlockComment() {
            SyntaxError e = assertThrows(SyntaxError.class, () -> lexed("x\n#< abc\n"));
            assertEquals(
                    "t.liq:2:0: syntax error: comment `#<` is not closed by `>#`", e.getMessage());
        }

        @Test
        void unclosedRawString() {
            SyntaxError e = assertThrows(SyntaxError.class, () -> lexed("{str|abc"));
            assertEquals(
                    "t.liq:1:0: syntax error: raw string `{str|` is not closed", e.getMessage());
        }

        @Test
        void unclosedRegexp() {
            SyntaxError e = assertThrows(SyntaxError.class, () -> lexed("r/abc"));
            assertEquals(
                    "t.liq:1:0: syntax error: regular expression `r/` is not closed",
                    e.getMessage());
        }

        @Test
        void unknownCharacter() {
            SyntaxError e = assertThrows(SyntaxError.class, () -> lexed("x = $y"));
            assertEquals("t.liq:1:4: syntax error: unexpected character '$'", e.getMessage());
        }

        @Test
        void aLoneBackslashBeforeInterpolation() {
            SyntaxError e = assertThrows(SyntaxError.class, () -> lexed("\"a\\#{x}\""));
            assertEquals(1, e.span().line());
            assertEquals(2, e.span().column());
        }
    }
}
