package org.groovecast.liquidsoap.lexer;

import static org.groovecast.liquidsoap.lexer.TokenKind.*;

import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import org.groovecast.liquidsoap.syntax.CharClasses;
import org.groovecast.liquidsoap.syntax.Expr.IncludeKind;
import org.groovecast.liquidsoap.syntax.Span;
import org.groovecast.liquidsoap.syntax.StringEscapes;
import org.groovecast.liquidsoap.syntax.SyntaxError;
import org.groovecast.liquidsoap.syntax.Warning;

/**
 * Liquidsoap 2.4's lexer (its lexer.ml) with the local rewrites of its preprocessor.ml that need
 * no context: {@code 3.{} is 3, {@code .}, {@code {}; {@code .name} is {@code .} then the name
 * (so a field may be named like a keyword); {@code null.} is the name {@code _null} then {@code
 * .}; and a string holding {@code #{...}} is the tokens of its pieces of text and of the code
 * inside, between {@link TokenKind#BEGIN_INTERPOLATION} and {@link
 * TokenKind#END_INTERPOLATION}. Line breaks are tokens ({@link TokenKind#PP_ENDL}), for the
 * {@link Preprocessor}. Comments are skipped; a line comment takes its line break with it.
 *
 * <p>Where two rules match, the longer wins, then the one lexer.ml lists first (so {@code e5} is
 * a float and {@code r/x/} a regular expression, as in Liquidsoap). Each token costs the length
 * of its text: the whole input is lexed in linear time.
 */
public final class Lexer {
    private static final Map<String, TokenKind> KEYWORDS =
            Map.ofEntries(
                    Map.entry("def", DEF),
                    Map.entry("let", LET),
                    Map.entry("try", TRY),
                    Map.entry("finally", FINALLY),
                    Map.entry("catch", CATCH),
                    Map.entry("do", DO),
                    Map.entry("fun", FUN),
                    Map.entry("end", END),
                    Map.entry("begin", BEGIN),
                    Map.entry("if", IF),
                    Map.entry("then", THEN),
                    Map.entry("else", ELSE),
                    Map.entry("elsif", ELSIF),
                    Map.entry("null", NULL),
                    Map.entry("while", WHILE),
                    Map.entry("for", FOR),
                    Map.entry("to", TO),
                    Map.entry("not", NOT),
                    Map.entry("open", OPEN),
                    Map.entry("and", AND),
                    Map.entry("or", OR),
                    Map.entry("mod", BIN3),
                    Map.entry("true", BOOL),
                    Map.entry("false", BOOL));

    private static final String[] PERCENT_KEYWORDS = {
        "%ifdef", "%ifndef", "%ifversion", "%ifencoder", "%ifnencoder", "%else", "%endif", "%argsof"
    };
    private static final TokenKind[] PERCENT_KINDS = {
        PP_IFDEF, PP_IFDEF, PP_IFVERSION, PP_IFENCODER, PP_IFENCODER, PP_ELSE, PP_ENDIF, ARGS_OF
    };

    private static final String[] LET_DECORATIONS = {
        "replaces", "eval", "json.parse", "yaml.parse", "sqlite.row", "sqlite.query", "xml.parse"
    };
    private static final String[] DEF_DECORATIONS = {"rec", "replaces"};

    private final SourceText source;
    private final String s;
    private final int limit;

    /** Where offset 0 of {@link #s} is in the source, when {@link #fixedSpan} is null. */
    private final int base;

    /** The one span of every token, for code in {@code #{...}} that escapes moved about. */
    private final Span fixedSpan;

    private final boolean interpolating;
    private final List<Warning> warnings;
    private final ArrayDeque<Token> pending = new ArrayDeque<>();
    private int pos;

    /** A lexer of a whole script; warnings are added to the list given. */
    public Lexer(SourceText source, List<Warning> warnings) {
        this(source, source.text(), 0, null, true, warnings);
        // a byte-order mark, which some editors write first, is nothing (Liquidsoap refuses it)
        if (s.startsWith("\uFEFF")) pos = 1;
    }

    private Lexer(
            SourceText source,
            String text,
            int base,
            Span fixedSpan,
            boolean interpolating,
            List<Warning> warnings) {
        this.source = source;
        this.s = text;
        this.limit = text.length();
        this.base = base;
        this.fixedSpan = fixedSpan;
        this.interpolating = interpolating;
        this.warnings = warnings;
    }

    /** The next token; {@link TokenKind#EOF} at the end, and again at every call after. */
    public Token next() {
        Token queued = pending.poll();
        return queued != null ? queued : scan();
    }

    private Token scan() {
        while (true) {
            while (pos < limit && CharClasses.isSkipped(s.charAt(pos))) pos++;
            if (pos >= limit) return token(EOF, "", pos, pos);
            int start = pos;
            char c = s.charAt(start);
            if (c == '#') {
                if (comment(start)) return token(EOF, "", limit, limit);
                continue;
            }
            if (CharClasses.isLineBreak(c)) return advance(PP_ENDL, start, start + 1);
            if (c == '%') return percent(start);
            if (c == '.') return dot(start);
            if (CharClasses.isDigit(c)) return number(start);
            if (c == '"' || c == '\'') return string(start, c);
            if (c == '{') return brace(start);
            int cp = s.codePointAt(start);
            if (c == '_' || CharClasses.isLetter(cp) || CharClasses.isNameSymbol(cp)) {
                return word(start);
            }
            return punctuation(start, c);
        }
    }

    // ---- comments

    /**
     * Skips the comment at {@code start}; true when it runs to the end of the input without a line
     * break (lexer.ml's rule reads the rest as the end of the file, even {@code #<}).
     */
    private boolean comment(int start) {
        int lineEnd = s.indexOf('\n', start);
        if (lineEnd < 0) {
            pos = limit;
            return true;
        }
        if (start + 1 < limit && s.charAt(start + 1) == '<') {
            blockComment(start);
            return false;
        }
        // A line comment, continued by the comment lines right below it; it takes the last line
        // break with it (so what follows it is on the same line, as far as calls go).
        int at = lineEnd;
        while (true) {
            int k = at + 1;
            while (k < limit && CharClasses.isBlank(s.charAt(k))) k++;
            if (k < limit && s.charAt(k) == '#') {
                if (k + 1 < limit && s.charAt(k + 1) == '<') {
                    pos = k;
                    return false;
                }
                int next = s.indexOf('\n', k);
                if (next < 0) {
                    pos = limit;
                    return false;
                }
                at = next;
                continue;
            }
            pos = at + 1;
            return false;
        }
    }

    /** {@code #< ... >#}, nested. */
    private void blockComment(int start) {
        int level = 0;
        int i = start + 2;
        while (i + 1 < limit) {
            char c = s.charAt(i);
            char d = s.charAt(i + 1);
            if (c == '>' && d == '#') {
                i += 2;
                if (level == 0) {
                    pos = i;
                    return;
                }
                level--;
            } else if (c == '#' && d == '<') {
                level++;
                i += 2;
            } else {
                i++;
            }
        }
        throw error(start, start + 2, "comment `#<` is not closed by `>#`");
    }

    // ---- names and keywords

    private Token word(int start) {
        int end = nameEnd(start);
        if (end == start) return advance(UNDERSCORE, start, start + 1);
        String name = s.substring(start, end);
        switch (name) {
            case "def" -> {
                Token decorated = decorated(start, end, DEF, DEF_DECORATIONS);
                if (decorated != null) return decorated;
            }
            case "let" -> {
                Token decorated = decorated(start, end, LET, LET_DECORATIONS);
                if (decorated != null) return decorated;
            }
            case "null" -> {
                if (end < limit && s.charAt(end) == '.') {
                    Token nullName = advance(VAR, "_null", start, end, end + 1);
                    pending.add(token(DOT, ".", end, end + 1));
                    return nullName;
                }
            }
            case "r" -> {
                if (end < limit && s.charAt(end) == '/') return regexp(start);
            }
            default -> {}
        }
        char c = s.charAt(start);
        if (c == 'e' || c == 'E') {
            int f = floatWithExponentEnd(start);
            if (f >= end) return advance(FLOAT, start, f);
        }
        TokenKind keyword = KEYWORDS.get(name);
        if (keyword != null) return advance(keyword, start, end);
        return advance(VAR, start, end);
    }

    /** {@code def rec f}, {@code let json.parse x}, {@code let json.parse[}: one token. */
    private Token decorated(int start, int end, TokenKind kind, String[] decorations) {
        int i = end;
        while (i < limit && CharClasses.isSkipped(s.charAt(i))) i++;
        if (i == end) return null;
        for (String decoration : decorations) {
            if (!s.startsWith(decoration, i)) continue;
            int j = i + decoration.length();
            int k = j;
            while (k < limit && CharClasses.isSkipped(s.charAt(k))) k++;
            String text = s.substring(start, end) + " " + decoration;
            if (decoration.equals("json.parse") && k < limit && s.charAt(k) == '[') {
                Token t = new Token(LETLBRA, text, decoration, span(start, k + 1));
                pos = k + 1;
                return t;
            }
            if (k > j) {
                Token t = new Token(kind, text, decoration, span(start, j));
                pos = k;
                return t;
            }
        }
        return null;
    }

    /**
     * The end of a name at {@code i} ({@code i} when there is none): {@code __} and more
     * underscores; underscores, a letter, then letters, digits, {@code _} and {@code '}; or one
     * symbol character.
     */
    private int nameEnd(int i) {
        if (i >= limit) return i;
        int j = i;
        while (j < limit && s.charAt(j) == '_') j++;
        if (j < limit && CharClasses.isLetter(s.codePointAt(j))) {
            j += Character.charCount(s.codePointAt(j));
            while (j < limit) {
                int cp = s.codePointAt(j);
                if (CharClasses.isLetter(cp)
                        || CharClasses.isDigit(cp)
                        || cp == '_'
                        || cp == '\'') {
                    j += Character.charCount(cp);
                } else {
                    break;
                }
            }
            return j;
        }
        if (j - i >= 2) return j;
        if (j == i && CharClasses.isNameSymbol(s.codePointAt(i))) {
            return i + Character.charCount(s.codePointAt(i));
        }
        return i;
    }

    // ---- numbers, times, versions

    private Token number(int start) {
        int digits = decimalEnd(start);
        int end = digits;
        TokenKind kind = INT;
        int prefixed = prefixedIntEnd(start);
        if (prefixed > end) end = prefixed;
        if (s.startsWith(".{", digits) && digits + 2 > end) {
            // 3.{x = 1} is the integer 3 with a field, not the float 3. and a record
            Token integer = advance(INT, s.substring(start, digits), start, digits, digits + 2);
            pending.add(token(DOT, ".", digits, digits + 1));
            pending.add(token(LCUR, "{", digits + 1, digits + 2));
            return integer;
        }
        int f = floatWithExponentEnd(start);
        if (f > end) {
            end = f;
            kind = FLOAT;
        }
        f = floatEnd(start);
        if (f > end) {
            end = f;
            kind = FLOAT;
        }
        int v = versionEnd(start);
        if (v > end) {
            end = v;
            kind = VERSION;
        }
        int t = timeEnd(start);
        if (t > end) {
            end = t;
            kind = TIME;
        }
        int interval = intervalEnd(start, t);
        if (interval > end) {
            end = interval;
            kind = INTERVAL;
        }
        return advance(kind, start, end);
    }

    /** {@code [0-9][0-9_]*} at i: its end, or i. */
    private int decimalEnd(int i) {
        if (i >= limit || !CharClasses.isDigit(s.charAt(i))) return i;
        int j = i + 1;
        while (j < limit && (CharClasses.isDigit(s.charAt(j)) || s.charAt(j) == '_')) j++;
        return j;
    }

    /** {@code 0x1F}, {@code 0o17}, {@code 0b101}: the end, or -1. */
    private int prefixedIntEnd(int i) {
        if (i + 2 >= limit || s.charAt(i) != '0') return -1;
        int radix =
                switch (s.charAt(i + 1)) {
                    case 'x', 'X' -> 16;
                    case 'o', 'O' -> 8;
                    case 'b', 'B' -> 2;
                    default -> 0;
                };
        if (radix == 0 || !inRadix(s.charAt(i + 2), radix)) return -1;
        int j = i + 3;
        while (j < limit && (inRadix(s.charAt(j), radix) || s.charAt(j) == '_')) j++;
        return j;
    }

    private static boolean inRadix(char c, int radix) {
        return switch (radix) {
            case 16 -> (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
            case 8 -> c >= '0' && c <= '7';
            default -> c == '0' || c == '1';
        };
    }

    /** {@code 1.5e3}, {@code 1e-3}, {@code .5e3}, {@code e5}: the end, or -1. */
    private int floatWithExponentEnd(int i) {
        int j = decimalEnd(i);
        while (j < limit && s.charAt(j) == '.') j = decimalEnd(j + 1);
        if (j >= limit || (s.charAt(j) != 'e' && s.charAt(j) != 'E')) return -1;
        int k = j + 1;
        while (k < limit && (s.charAt(k) == '+' || s.charAt(k) == '-')) k++;
        int end = decimalEnd(k);
        return end > k ? end : -1;
    }

    /** {@code 1.5}, {@code 1.}, {@code .5}: the end, or -1. */
    private int floatEnd(int i) {
        int j = decimalEnd(i);
        return j < limit && s.charAt(j) == '.' ? decimalEnd(j + 1) : -1;
    }

    /** {@code 2.4.0} and whatever follows up to a space ({@code %ifversion}): the end, or -1. */
    private int versionEnd(int i) {
        int j = decimalEnd(i);
        for (int part = 0; part < 2; part++) {
            if (j >= limit || s.charAt(j) != '.') return -1;
            int k = decimalEnd(j + 1);
            if (k == j + 1) return -1;
            j = k;
        }
        while (j < limit) {
            char c = s.charAt(j);
            if (CharClasses.isSkipped(c) || CharClasses.isLineBreak(c)) break;
            j++;
        }
        return j;
    }

    /**
     * A time, {@code 1w2h3m4s} with any of the parts in that order, or {@code 12h30}: the end, or
     * -1.
     */
    private int timeEnd(int i) {
        int j = i;
        int lastUnit = -1;
        int afterHours = -1;
        while (true) {
            int d = decimalEnd(j);
            if (d == j) break;
            int unit = d < limit ? "whms".indexOf(s.charAt(d)) : -1;
            if (unit <= lastUnit) {
                if (lastUnit == 1) afterHours = d;
                break;
            }
            lastUnit = unit;
            j = d + 1;
        }
        if (lastUnit < 0) return -1;
        return Math.max(j, afterHours);
    }

    /** {@code 8h-12h}, spaces allowed around the dash: the end, or -1. */
    private int intervalEnd(int i, int firstEnd) {
        if (firstEnd < 0) return -1;
        int j = firstEnd;
        while (j < limit && CharClasses.isSkipped(s.charAt(j))) j++;
        if (j >= limit || s.charAt(j) != '-') return -1;
        j++;
        while (j < limit && CharClasses.isSkipped(s.charAt(j))) j++;
        return timeEnd(j);
    }

    // ---- dots

    private Token dot(int start) {
        int j = start + 1;
        while (j < limit && CharClasses.isSkipped(s.charAt(j))) j++;
        int name = nameEnd(j);
        int end = name > j ? name : -1;
        TokenKind kind = VAR;
        if (start + 1 > end) {
            end = start + 1;
            kind = DOT;
        }
        if (s.startsWith("...", start) && start + 3 > end) {
            end = start + 3;
            kind = DOTDOTDOT;
        }
        int f = Math.max(floatWithExponentEnd(start), floatEnd(start));
        if (f > end) {
            end = f;
            kind = FLOAT;
        }
        if (kind == VAR) {
            Token dot = advance(DOT, ".", start, start + 1, name);
            pending.add(token(VAR, s.substring(j, name), j, name));
            return dot;
        }
        return advance(kind, start, end);
    }

    // ---- %...

    private Token percent(int start) {
        int end = start + 1;
        while (end < limit) {
            int cp = s.codePointAt(end);
            if (CharClasses.isLetter(cp) || CharClasses.isDigit(cp) || cp == '.' || cp == '_') {
                end += Character.charCount(cp);
            } else {
                break;
            }
        }
        Token include = include(start, "%include_extra", IncludeKind.EXTRA);
        if (include == null) include = include(start, "%include", IncludeKind.FILE);
        if (include != null) return include;
        for (int k = 0; k < PERCENT_KEYWORDS.length; k++) {
            String keyword = PERCENT_KEYWORDS[k];
            if (end - start == keyword.length() && s.startsWith(keyword, start)) {
                boolean negative = keyword.equals("%ifndef") || keyword.equals("%ifnencoder");
                Token t =
                        new Token(
                                PERCENT_KINDS[k],
                                keyword,
                                negative ? "negative" : "",
                                span(start, end));
                pos = end;
                return t;
            }
        }
        if (end > start + 1) return advance(ENCODER, s.substring(start + 1, end), start, end, end);
        return advance(BIN2, start, start + 1);
    }

    private Token include(int start, String keyword, IncludeKind kind) {
        if (!s.startsWith(keyword, start)) return null;
        int j = start + keyword.length();
        while (j < limit && CharClasses.isBlank(s.charAt(j))) j++;
        if (j >= limit) return null;
        char open = s.charAt(j);
        char close;
        if (open == '"') {
            close = '"';
        } else if (open == '<' && kind == IncludeKind.FILE) {
            close = '>';
            kind = IncludeKind.LIBRARY;
        } else {
            return null;
        }
        int k = s.indexOf(close, j + 1);
        if (k < 0) return null;
        Token t = new Token(INCLUDE, s.substring(j + 1, k), kind.name(), span(start, k + 1));
        pos = k + 1;
        return t;
    }

    // ---- strings

    private Token brace(int start) {
        int j = start + 1;
        while (j < limit && (isLowerOrUnderscore(s.charAt(j)))) j++;
        if (j >= limit || s.charAt(j) != '|') return advance(LCUR, start, start + 1);
        String id = s.substring(start + 1, j);
        int from = j + 1;
        int k = from;
        while (true) {
            int bar = s.indexOf('|', k);
            if (bar < 0) throw error(start, j + 1, "raw string `{" + id + "|` is not closed");
            int m = bar + 1;
            while (m < limit && isLowerOrUnderscore(s.charAt(m))) m++;
            if (m < limit && s.charAt(m) == '}' && s.substring(bar + 1, m).equals(id)) {
                Token t = new Token(RAW_STRING, s.substring(from, bar), id, span(start, m + 1));
                pos = m + 1;
                return t;
            }
            k = bar + 1;
        }
    }

    private static boolean isLowerOrUnderscore(char c) {
        return (c >= 'a' && c <= 'z') || c == '_';
    }

    /** The end of a string whose opening quote is at {@code start}, or -1. */
    private int stringEnd(int start, char quote) {
        int i = start + 1;
        while (i < limit) {
            char c = s.charAt(i);
            if (c == '\\') {
                i += i + 1 < limit ? 1 + Character.charCount(s.codePointAt(i + 1)) : 1;
            } else if (c == quote) {
                return i + 1;
            } else {
                i++;
            }
        }
        return -1;
    }

    private Token regexp(int start) {
        int end = stringEnd(start + 1, '/');
        if (end < 0) throw error(start, start + 2, "regular expression `r/` is not closed");
        int flags = end;
        while (flags < limit && "gismu".indexOf(s.charAt(flags)) >= 0) flags++;
        String raw = s.substring(start + 2, end - 1);
        Token t = new Token(REGEXP, raw, s.substring(end, flags), span(start, flags));
        pos = flags;
        return t;
    }

    private Token string(int start, char quote) {
        int end = stringEnd(start, quote);
        if (end < 0) throw error(start, start + 1, "string is not closed");
        pos = end;
        String raw = s.substring(start + 1, end - 1);
        String q = String.valueOf(quote);
        if (interpolating) {
            int hash = raw.indexOf("#{");
            if (hash >= 0 && raw.indexOf('}', hash + 2) >= 0) {
                return interpolation(start, end, quote, raw, hash);
            }
        }
        Token t = new Token(STRING, raw, q, span(start, end));
        checkEscapes(raw, quote, start + 1);
        return t;
    }

    /**
     * {@code "a #{e} b"}: the pieces between {@code #{} and the first {@code }} after it are code,
     * with the string's escapes applied first (as Liquidsoap does, so the code cannot hold a {@code
     * }} nor an unescaped quote); the rest are pieces of text.
     */
    private Token interpolation(int start, int end, char quote, String raw, int firstHash) {
        String q = String.valueOf(quote);
        int contentStart = start + 1;
        Token begin = new Token(BEGIN_INTERPOLATION, "", q, span(start, contentStart));
        int k = 0;
        int hash = firstHash;
        while (hash >= 0) {
            int close = raw.indexOf('}', hash + 2);
            if (close < 0) break;
            if (hash > k) text(raw, k, hash, quote, contentStart);
            code(raw.substring(hash + 2, close), quote, contentStart + hash + 2);
            k = close + 1;
            hash = raw.indexOf("#{", k);
        }
        if (k < raw.length()) text(raw, k, raw.length(), quote, contentStart);
        pending.add(new Token(END_INTERPOLATION, "", q, span(end - 1, end)));
        return begin;
    }

    private void text(String raw, int from, int to, char quote, int contentStart) {
        String piece = raw.substring(from, to);
        pending.add(
                new Token(
                        INTERPOLATED_STRING,
                        piece,
                        String.valueOf(quote),
                        span(contentStart + from, contentStart + to)));
        checkEscapes(piece, quote, contentStart + from);
    }

    private void code(String raw, char quote, int at) {
        StringEscapes.Rendered rendered = StringEscapes.render(raw, quote);
        if (rendered.unterminated()) {
            throw error(at + raw.length() - 1, at + raw.length(), "string is not closed");
        }
        Span fixed = null;
        String code = raw;
        if (raw.indexOf('\\') >= 0) {
            code = StringEscapes.text(rendered);
            fixed = span(at, at + raw.length());
        }
        Lexer inner =
                new Lexer(
                        source,
                        code,
                        fixedSpan == null ? base + at : 0,
                        fixedSpan != null ? fixedSpan : fixed,
                        false,
                        warnings);
        for (Token t = inner.next(); t.kind() != EOF; t = inner.next()) pending.add(t);
    }

    private void checkEscapes(String raw, char quote, int at) {
        if (raw.indexOf('\\') < 0) return;
        StringEscapes.Rendered rendered = StringEscapes.render(raw, quote);
        if (rendered.unterminated()) {
            // Only a piece of text before #{...} can end in a lone backslash, which Liquidsoap
            // reads as escaping the quote it puts back at the piece's end.
            throw error(
                    at + raw.length() - 1,
                    at + raw.length(),
                    "string is not closed: the `\\` before `#{` escapes its end");
        }
        for (int stray : rendered.strayBackslashes()) {
            warnings.add(
                    new Warning(
                            span(at + stray, at + stray + 2),
                            "illegal backslash escape in string"));
        }
    }

    // ---- operators

    private Token punctuation(int start, char c) {
        char d = start + 1 < limit ? s.charAt(start + 1) : '\0';
        return switch (c) {
            case '-' ->
                    d == '>'
                            ? advance(YIELDS, start, start + 2)
                            : d == '.'
                                    ? advance(BIN2, start, start + 2)
                                    : advance(MINUS, start, start + 1);
            case '=' ->
                    d == '=' ? advance(BIN1, start, start + 2) : advance(GETS, start, start + 1);
            case '!' -> d == '=' ? advance(BIN1, start, start + 2) : advance(GET, start, start + 1);
            case '<', '>' -> advance(BIN1, start, d == '=' ? start + 2 : start + 1);
            case '+' -> advance(BIN2, start, d == '.' ? start + 2 : start + 1);
            case '^' -> advance(BIN2, start, start + 1);
            case '*' ->
                    d == '.' ? advance(BIN3, start, start + 2) : advance(TIMES, start, start + 1);
            case '/' -> advance(BIN3, start, d == '.' ? start + 2 : start + 1);
            case '?' ->
                    d == '.'
                            ? advance(QUESTION_DOT, start, start + 2)
                            : d == '?'
                                    ? advance(COALESCE, start, start + 2)
                                    : advance(QUESTION, start, start + 1);
            case ':' ->
                    d == ':'
                            ? advance(COLONCOLON, start, start + 2)
                            : d == '='
                                    ? advance(SET, start, start + 2)
                                    : advance(COLON, start, start + 1);
            case ';' ->
                    d == ';' ? advance(SEQSEQ, start, start + 2) : advance(SEQ, start, start + 1);
            case '~' -> advance(TILD, start, start + 1);
            case ',' -> advance(COMMA, start, start + 1);
            case '@' -> advance(AT, start, start + 1);
            case '(' -> advance(LPAR, start, start + 1);
            case ')' -> advance(RPAR, start, start + 1);
            case '[' -> advance(LBRA, start, start + 1);
            case ']' -> advance(RBRA, start, start + 1);
            case '}' -> advance(RCUR, start, start + 1);
            default -> throw error(start, start + 1, "unexpected character " + show(start));
        };
    }

    private String show(int at) {
        int cp = s.codePointAt(at);
        if (cp > 0x20 && cp < 0x7f) return "'" + (char) cp + "'";
        return String.format("U+%04X", cp);
    }

    // ---- tokens and spans

    private Token advance(TokenKind kind, int start, int end) {
        return advance(kind, s.substring(start, end), start, end, end);
    }

    private Token advance(TokenKind kind, String text, int start, int end) {
        return advance(kind, text, start, end, end);
    }

    /** A token spanning start..end, the lexer going on at {@code next}. */
    private Token advance(TokenKind kind, String text, int start, int end, int next) {
        Token t = new Token(kind, text, span(start, end));
        pos = next;
        return t;
    }

    private Token token(TokenKind kind, String text, int start, int end) {
        return new Token(kind, text, span(start, end));
    }

    private Span span(int start, int end) {
        return fixedSpan != null ? fixedSpan : source.span(base + start, base + end);
    }

    private SyntaxError error(int start, int end, String message) {
        return new SyntaxError(span(start, end), message);
    }
}
