package org.groovecast.liquidsoap.prelude;

import java.nio.charset.StandardCharsets;
import org.groovecast.liquidsoap.eval.Call;
import org.groovecast.liquidsoap.eval.Fn;
import org.groovecast.liquidsoap.eval.Values;
import org.groovecast.liquidsoap.syntax.Span;

/**
 * {@code string.escape} and {@code string.escape.all} as Liquidsoap escapes: character by character
 * (a code point in {@code utf8}, a byte in {@code ascii}), a special one (a quote, a backslash, a
 * control character, and in ascii anything past {@code ~}) replaced by its escape ({@code \n},
 * {@code \"}..., else {@code \u00E9} in utf8, {@code \xE9} in ascii); a script's {@code
 * special_char} and {@code escape_char} replace those rules, called with {@code ~encoding} and the
 * character.
 */
final class Escapes {
    private Escapes() {}

    static String escape(String s, String encoding, Fn special, Fn escape, Span at) {
        boolean ascii = "ascii".equals(encoding);
        String enc = ascii ? "ascii" : "utf8";
        StringBuilder out = new StringBuilder(s.length() + 8);
        for (String c : characters(s, ascii)) {
            boolean isSpecial =
                    special == null
                            ? defaultSpecial(c, ascii)
                            : Values.truth(call(special, enc, c, at), at);
            if (!isSpecial) out.append(c);
            else if (escape == null) out.append(defaultEscape(c, ascii));
            else out.append(Values.base(call(escape, enc, c, at)));
        }
        return out.toString();
    }

    /** Every character escaped: {@code utf8} ({@code \u00E9}), {@code hex} or {@code octal}. */
    static String all(String s, String format) {
        StringBuilder out = new StringBuilder();
        boolean utf8 = format == null || format.equals("utf8");
        for (String c : characters(s, !utf8)) {
            String named = named(c);
            if (named != null) out.append(named);
            else if (utf8) out.append(String.format("\\u%04X", c.codePointAt(0)));
            else if (format.equals("octal")) out.append(String.format("\\%03o", (int) c.charAt(0)));
            else out.append(String.format("\\x%02X", (int) c.charAt(0)));
        }
        return out.toString();
    }

    private static Object call(Fn f, String encoding, String c, Span at) {
        return f.apply(Call.at(at).arg("encoding", encoding).arg(c).build());
    }

    /** The string's characters: code points, or (ascii) its UTF-8 bytes, each as a string. */
    private static java.util.List<String> characters(String s, boolean bytes) {
        java.util.List<String> out = new java.util.ArrayList<>();
        if (bytes) {
            for (byte b : s.getBytes(StandardCharsets.UTF_8))
                out.add(String.valueOf((char) (b & 0xff)));
        } else {
            s.codePoints().forEach(cp -> out.add(new String(Character.toChars(cp))));
        }
        return out;
    }

    private static boolean defaultSpecial(String c, boolean ascii) {
        if (c.length() != 1) return false;
        char ch = c.charAt(0);
        return ch == '\''
                || ch == '"'
                || ch == '\\'
                || ch == 0x7F
                || ch <= 0x1F
                || ascii && ch > 0x7E;
    }

    private static String defaultEscape(String c, boolean ascii) {
        String named = named(c);
        if (named != null) return named;
        if (!ascii) return String.format("\\u%04X", c.codePointAt(0));
        return String.format("\\x%02X", (int) c.charAt(0));
    }

    private static String named(String c) {
        if (c.length() != 1) return null;
        return switch (c.charAt(0)) {
            case '\b' -> "\\b";
            case '\n' -> "\\n";
            case '\r' -> "\\r";
            case '\t' -> "\\t";
            case '\\' -> "\\\\";
            case '"' -> "\\\"";
            case '\'' -> "\\'";
            default -> null;
        };
    }
}
