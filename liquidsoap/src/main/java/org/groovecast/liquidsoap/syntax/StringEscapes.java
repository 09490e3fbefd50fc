package org.groovecast.liquidsoap.syntax;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The value of a string literal from its text as written, with Liquidsoap 2.4's escapes: {@code \n
 * \t \r \a \b \e \f \v}, {@code \" \' \/ \\ \?}, {@code \xHH} and {@code \ooo} (a byte), {@code
 * \}{@code uHHHH} (a character, in UTF-8), a backslash before a line break (the break and the next
 * line's indent are dropped). Any other backslash stays as written, with a warning. In a regular
 * expression ({@code r/.../}) the escapes of quotes and {@code \?} keep their backslash.
 */
public final class StringEscapes {
    private StringEscapes() {}

    /**
     * The bytes, the offsets in the text of the backslashes Liquidsoap warns about, and whether the
     * text ends in a lone backslash, which Liquidsoap reads as escaping the closing quote (so the
     * string never ends: an error).
     */
    public record Rendered(byte[] bytes, List<Integer> strayBackslashes, boolean unterminated) {}

    public static Rendered render(String raw, char quote) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(raw.length());
        List<Integer> stray = new ArrayList<>();
        boolean regexp = quote == '/';
        int n = raw.length();
        int i = 0;
        while (i < n) {
            char c = raw.charAt(i);
            if (c != '\\') {
                int cp = raw.codePointAt(i);
                utf8(out, cp);
                i += Character.charCount(cp);
                continue;
            }
            if (i + 1 == n) return new Rendered(out.toByteArray(), stray, true);
            char e = raw.charAt(i + 1);
            switch (e) {
                case 'a' -> out.write(0x07);
                case 'b' -> out.write(0x08);
                case 'e' -> out.write(0x1b);
                case 'f' -> out.write(0x0c);
                case 'n' -> out.write('\n');
                case 'r' -> out.write('\r');
                case 't' -> out.write('\t');
                case 'v' -> out.write(0x0b);
                case '"', '\'', '/', '\\' -> {
                    if (regexp && e != '/') out.write('\\');
                    out.write(e);
                }
                case '?' -> {
                    if (regexp) out.write('\\');
                    out.write('?');
                }
                case '\n' -> {
                    i += 2;
                    while (i < n && CharClasses.isSkipped(raw.charAt(i))) i++;
                    continue;
                }
                default -> {
                    if (e == 'x' && hex(raw, i + 2, 2)) {
                        out.write(Integer.parseInt(raw, i + 2, i + 4, 16));
                        i += 4;
                        continue;
                    }
                    if (e == 'u' && hex(raw, i + 2, 4)) {
                        utf8(out, Integer.parseInt(raw, i + 2, i + 6, 16));
                        i += 6;
                        continue;
                    }
                    if (octal(raw, i + 1)) {
                        out.write(Math.min(255, Integer.parseInt(raw, i + 1, i + 4, 8)));
                        i += 4;
                        continue;
                    }
                    if (!regexp) stray.add(i);
                    out.write('\\');
                    int cp = raw.codePointAt(i + 1);
                    utf8(out, cp);
                    i += 1 + Character.charCount(cp);
                    continue;
                }
            }
            i += 2;
        }
        return new Rendered(out.toByteArray(), stray, false);
    }

    /** The rendered value read as UTF-8 text, for code inside {@code #{...}}. */
    public static String text(Rendered rendered) {
        return decode(rendered.bytes());
    }

    /**
     * A literal's bytes as text: UTF-8, where bytes that are no UTF-8 (a {@code \xE2} written
     * alone) read as U+FFFD, one for each character Liquidsoap would see there: as many bytes as
     * the first one announces, so {@code "\xE2\x00"} at a string's end is one.
     */
    public static String decode(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .decode(java.nio.ByteBuffer.wrap(bytes))
                    .toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            StringBuilder out = new StringBuilder(bytes.length);
            int i = 0;
            while (i < bytes.length) {
                int lead = bytes[i] & 0xff;
                int len =
                        lead < 0x80
                                ? 1
                                : lead >= 0xc0 && lead <= 0xdf
                                        ? 2
                                        : lead >= 0xe0 && lead <= 0xef
                                                ? 3
                                                : lead >= 0xf0 && lead <= 0xf7 ? 4 : 1;
                len = Math.min(len, bytes.length - i);
                try {
                    out.append(
                            StandardCharsets.UTF_8
                                    .newDecoder()
                                    .decode(java.nio.ByteBuffer.wrap(bytes, i, len)));
                } catch (java.nio.charset.CharacterCodingException bad) {
                    out.append('\uFFFD');
                }
                i += len;
            }
            return out.toString();
        }
    }

    private static boolean hex(String s, int from, int count) {
        if (from + count > s.length()) return false;
        for (int k = from; k < from + count; k++) {
            if (Character.digit(s.charAt(k), 16) < 0 || s.charAt(k) > 'f') return false;
        }
        return true;
    }

    private static boolean octal(String s, int from) {
        if (from + 3 > s.length()) return false;
        for (int k = from; k < from + 3; k++) {
            char c = s.charAt(k);
            if (c < '0' || c > '7') return false;
        }
        return true;
    }

    private static void utf8(ByteArrayOutputStream out, int cp) {
        if (cp < 0x80) {
            out.write(cp);
        } else if (cp < 0x800) {
            out.write(0xc0 | cp >> 6);
            out.write(0x80 | cp & 0x3f);
        } else if (cp < 0x10000) {
            out.write(0xe0 | cp >> 12);
            out.write(0x80 | cp >> 6 & 0x3f);
            out.write(0x80 | cp & 0x3f);
        } else {
            out.write(0xf0 | cp >> 18);
            out.write(0x80 | cp >> 12 & 0x3f);
            out.write(0x80 | cp >> 6 & 0x3f);
            out.write(0x80 | cp & 0x3f);
        }
    }
}
