package org.groovecast.liquidsoap.prelude;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.groovecast.liquidsoap.eval.Args;
import org.groovecast.liquidsoap.eval.Errors;
import org.groovecast.liquidsoap.eval.Regexp;
import org.groovecast.liquidsoap.eval.Show;
import org.groovecast.liquidsoap.eval.Tuple;
import org.groovecast.liquidsoap.eval.Values;

/**
 * The {@code string} module. Lengths and positions count characters (Liquidsoap's utf8 encoding,
 * its default), or bytes with {@code encoding="ascii"}.
 */
final class StringFunctions {
    private StringFunctions() {}

    private static final String ENC = "?encoding : string?, ";

    static void register(Library lib) {
        binary(lib);
        lib.function(
                "string.concat",
                "(?separator : string, [string]) -> string",
                "Concatenates strings, with a separator between them.",
                Map.of("separator", ""),
                a -> String.join(a.string(0), strings(a.list(1))));
        lib.function(
                "string.split",
                "(separator : string, string) -> [string]",
                "Splits a string at a regular expression.",
                a -> new Regexp(a.string(0), "").split(a.string(1)));
        lib.function(
                "string.split.first",
                "(" + ENC + "separator : string, string) -> string * string",
                "Splits a string at the first separator; error not_found without one.",
                a -> {
                    String s = a.string(2);
                    int i = s.indexOf(a.string(1));
                    if (i < 0) throw Errors.notFound("String does not contain the separator.");
                    return Tuple.of(s.substring(0, i), s.substring(i + a.string(1).length()));
                });
        lib.function(
                "string.contains",
                "("
                        + ENC
                        + "?prefix : string, ?substring : string, ?suffix : string, string) -> bool",
                "Whether a string starts with the prefix, contains the substring or ends with the suffix.",
                Map.of("prefix", "", "substring", "", "suffix", ""),
                a -> {
                    String s = a.string(4);
                    String prefix = a.string(1);
                    String sub = a.string(2);
                    String suffix = a.string(3);
                    if (prefix.isEmpty() && sub.isEmpty() && suffix.isEmpty()) return true;
                    return (!prefix.isEmpty() && s.startsWith(prefix))
                            || (!sub.isEmpty() && s.contains(sub))
                            || (!suffix.isEmpty() && s.endsWith(suffix));
                });
        lib.function(
                "string.replace",
                "(pattern : string, (string) -> string, string) -> string",
                "Replaces every match of a regular expression by what the function answers for it.",
                a -> new Regexp(a.string(0), "g").replace(a.fn(1), a.string(2)));
        lib.function(
                "string.match",
                "(pattern : string, string) -> bool",
                "Whether a string matches a regular expression.",
                a -> new Regexp(a.string(0), "").test(a.string(1)));
        lib.function(
                "string.extract",
                "(pattern : string, string) -> [int * string]",
                "The groups of a regular expression's first match.",
                a -> new Regexp(a.string(0), "").exec(a.string(1)));
        lib.function(
                "string.length",
                "(" + ENC + "string) -> int",
                "The length of a string.",
                a -> (long) length(a, 0, a.string(1)));
        lib.function(
                "string.bytes.length",
                "(string) -> int",
                "The length of a string in bytes.",
                a -> (long) BinaryStrings.bytes(a.string(0)).length);
        lib.function(
                "string.sub",
                "(" + ENC + "string, start : int, length : int) -> string",
                "The part of a string from start, of length characters (empty when out of range).",
                a -> sub(a.string(1), (int) a.integer(2), (int) a.integer(3)));
        lib.function(
                "string.index",
                "(" + ENC + "substring : string, string) -> int",
                "Where the substring first starts, -1 when absent.",
                a -> (long) a.string(2).indexOf(a.string(1)));
        lib.function(
                "string.nth",
                "(" + ENC + "string, int) -> int",
                "The code of the character at a position.",
                a -> {
                    String s = a.string(1);
                    int i = (int) a.integer(2);
                    if (i < 0 || i >= s.length())
                        throw Errors.notFound("string.nth: index out of bounds");
                    return (long) s.codePointAt(s.offsetByCodePoints(0, i));
                });
        lib.function(
                "string.char",
                "(" + ENC + "int) -> string",
                "The character of a code.",
                a -> new String(Character.toChars((int) a.integer(1))));
        lib.function(
                "string.chars",
                "(" + ENC + "string) -> [string]",
                "The characters of a string.",
                a ->
                        a.string(1)
                                .codePoints()
                                .mapToObj(c -> (Object) new String(Character.toChars(c)))
                                .toList());
        lib.function(
                "string.case",
                "(?lower : bool, string) -> string",
                "A string in lower (or upper) case.",
                Map.of("lower", true),
                a -> a.bool(0) ? a.string(1).toLowerCase() : a.string(1).toUpperCase());
        lib.function(
                "string.uppercase",
                "(string) -> string",
                "A string in upper case.",
                a -> a.string(0).toUpperCase());
        lib.function(
                "string.lowercase",
                "(string) -> string",
                "A string in lower case.",
                a -> a.string(0).toLowerCase());
        lib.function(
                "string.capitalize",
                "(?capitalize : bool, ?space_sensitive : bool, string) -> string",
                "Every word's first letter in upper case (lower case with capitalize=false).",
                Map.of("capitalize", true, "space_sensitive", true),
                a -> capitalize(a.string(2), a.bool(0), a.bool(1)));
        lib.function(
                "string.trim",
                "(string) -> string",
                "A string without spaces around it.",
                a -> a.string(0).strip());
        lib.function(
                "string.spaces", "(int) -> string", "Spaces.", a -> " ".repeat((int) a.integer(0)));
        lib.function(
                "string.make",
                "(?char_code : int, int) -> string",
                "A character repeated (a space by default).",
                Map.of("char_code", 32L),
                a -> new String(Character.toChars((int) a.integer(0))).repeat((int) a.integer(1)));
        lib.function(
                "string.compare",
                "(string, string) -> int",
                "Compares strings: -1, 0 or 1.",
                a -> (long) Integer.signum(a.string(0).compareTo(a.string(1))));
        lib.function(
                "string.quote",
                "(" + ENC + "string) -> string",
                "A string quoted and escaped.",
                a -> Show.quote(a.string(1)));
        lib.function(
                "string.unquote",
                "(string) -> string",
                "A quoted string's text.",
                a -> unquote(a.string(0)));
        lib.function(
                "string.escape",
                "(?special_char : ((encoding : string, string) -> bool)?, ?escape_char :"
                        + " ((encoding : string, string) -> string)?, "
                        + ENC
                        + "string) -> string",
                "A string with its special characters escaped.",
                a ->
                        Escapes.escape(
                                a.string(3),
                                a.isNull(2) ? "utf8" : a.string(2),
                                a.isNull(0) ? null : a.fn(0),
                                a.isNull(1) ? null : a.fn(1),
                                a.at()));
        lib.function(
                "string.escape.all",
                "(?format : string, string) -> string",
                "Every character escaped: format utf8 (the default), hex or octal.",
                Map.of("format", "utf8"),
                a -> Escapes.all(a.string(1), a.string(0)));
        lib.function(
                "string.escape.html",
                "(" + ENC + "string) -> string",
                "A string escaped for HTML.",
                a ->
                        a.string(1)
                                .replace("&", "&amp;")
                                .replace("<", "&lt;")
                                .replace(">", "&gt;")
                                .replace("\"", "&quot;")
                                .replace("'", "&#39;"));
        lib.function(
                "string.unescape",
                "(" + ENC + "string) -> string",
                "A string's escapes applied.",
                a -> unquote("\"" + a.string(1) + "\""));
        lib.function(
                "string.residual",
                "(" + ENC + "prefix : string, string) -> string?",
                "What follows the prefix, null when the string does not start with it.",
                a ->
                        a.string(2).startsWith(a.string(1))
                                ? a.string(2).substring(a.string(1).length())
                                : null);
        lib.function(
                "string.is_int",
                "(string) -> bool",
                "Whether a string is an integer.",
                a -> {
                    try {
                        CoreFunctions.parseInt(a.string(0));
                        return true;
                    } catch (NumberFormatException e) {
                        return false;
                    }
                });
        lib.function(
                "string.to_int",
                "(?default : int, string) -> int",
                "An integer, or the default.",
                Map.of("default", 0L),
                a -> {
                    try {
                        return CoreFunctions.parseInt(a.string(1));
                    } catch (NumberFormatException e) {
                        return a.integer(0);
                    }
                });
        lib.function(
                "string.to_float",
                "(?default : float, string) -> float",
                "A float, or the default.",
                Map.of("default", 0.0),
                a -> {
                    try {
                        return CoreFunctions.parseFloat(a.string(1));
                    } catch (NumberFormatException e) {
                        return a.number(0);
                    }
                });
        lib.function(
                "string.of_int",
                "(?digits : int, int) -> string",
                "An integer with at least digits digits.",
                Map.of("digits", 0L),
                a ->
                        a.integer(0) > 0
                                ? String.format("%0" + a.integer(0) + "d", a.integer(1))
                                : Long.toString(a.integer(1)));
        lib.function(
                "string.id.default",
                "(default : string, string?) -> string",
                "An id, or the default when it is null or empty.",
                a -> a.isNull(1) || a.string(1).isEmpty() ? a.string(0) : a.string(1));
        lib.function(
                "string.null_terminated",
                "(string) -> string",
                "A string up to its first NUL.",
                a -> {
                    int i = a.string(0).indexOf('\0');
                    return i < 0 ? a.string(0) : a.string(0).substring(0, i);
                });
        lib.function(
                "string.digest",
                "(string) -> string",
                "The MD5 digest of a string, in hexadecimal.",
                a -> digest(a.string(0)));
        lib.function(
                "string.hex_of_int",
                "(?pad : int, int) -> string",
                "An integer in hexadecimal.",
                Map.of("pad", 0L),
                a -> {
                    String h = Long.toHexString(a.integer(1));
                    return "0".repeat(Math.max(0, (int) a.integer(0) - h.length())) + h;
                });
        lib.function(
                "string.base64.encode",
                "(string) -> string",
                "Base64.",
                a -> Base64.getEncoder().encodeToString(BinaryStrings.bytes(a.string(0))));
        lib.function(
                "string.base64.decode",
                "(string) -> string",
                "From base64.",
                a -> {
                    try {
                        return BinaryStrings.of(Base64.getDecoder().decode(a.string(0).strip()));
                    } catch (IllegalArgumentException e) {
                        throw Errors.of("string", "string.base64.decode: invalid base64");
                    }
                });
        lib.function(
                "url.encode",
                "(?plus : bool, string) -> string",
                "Percent-encodes a string for a URL.",
                Map.of("plus", true),
                a -> {
                    String e = URLEncoder.encode(a.string(1), StandardCharsets.UTF_8);
                    return a.bool(0) ? e : e.replace("+", "%20");
                });
        lib.function(
                "url.decode",
                "(?plus : bool, string) -> string",
                "Decodes a percent-encoded string.",
                Map.of("plus", true),
                a -> {
                    String s = a.bool(0) ? a.string(1) : a.string(1).replace("+", "%2B");
                    return URLDecoder.decode(s, StandardCharsets.UTF_8);
                });
        lib.function(
                "string.annotate.parse",
                "(string) -> [string * string] * string",
                "Reads annotate:k=\"v\",k2=v2:uri's metadata and uri (without the annotate: prefix).",
                a -> Annotations.parse(a.string(0)));
    }

    /** {@code string.binary.*}: integers as the bytes of a string, little or big endian. */
    static void binary(Library lib) {
        lib.function(
                "string.binary.to_int",
                "(?little_endian : bool, string) -> int",
                "The integer a string's bytes make.",
                Map.of("little_endian", true),
                a -> {
                    byte[] b = a.string(1).getBytes(StandardCharsets.ISO_8859_1);
                    long v = 0;
                    for (int i = 0; i < b.length; i++) {
                        int k = a.bool(0) ? b.length - 1 - i : i;
                        v = (v << 8) | (b[k] & 0xff);
                    }
                    return v;
                });
        lib.function(
                "string.binary.of_int",
                "(?pad : int, ?little_endian : bool, int) -> string",
                "An integer as the bytes of a string, padded with zeros to pad bytes.",
                Map.of("pad", 0L, "little_endian", true),
                a -> {
                    long v = a.integer(2);
                    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
                    while (v != 0) {
                        bytes.write((int) (v & 0xff));
                        v >>>= 8;
                    }
                    while (bytes.size() < a.integer(0)) bytes.write(0);
                    byte[] b = bytes.toByteArray();
                    if (!a.bool(1)) {
                        for (int i = 0; i < b.length / 2; i++) {
                            byte t = b[i];
                            b[i] = b[b.length - 1 - i];
                            b[b.length - 1 - i] = t;
                        }
                    }
                    return new String(b, StandardCharsets.ISO_8859_1);
                });
    }

    static List<String> strings(List<Object> l) {
        List<String> out = new ArrayList<>(l.size());
        for (Object o : l) out.add(Show.text(o));
        return out;
    }

    private static int length(Args a, int encoding, String s) {
        Object enc = Values.base(a.get(encoding));
        if ("ascii".equals(enc)) return s.getBytes(StandardCharsets.UTF_8).length;
        return s.codePointCount(0, s.length());
    }

    static String sub(String s, int start, int length) {
        int n = s.codePointCount(0, s.length());
        if (start < 0 || length < 0 || start + length > n) return "";
        int from = s.offsetByCodePoints(0, start);
        int to = s.offsetByCodePoints(from, length);
        return s.substring(from, to);
    }

    private static String capitalize(String s, boolean up, boolean spaceSensitive) {
        StringBuilder out = new StringBuilder(s.length());
        boolean start = true;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (start && Character.isLetter(c)) {
                out.append(up ? Character.toUpperCase(c) : Character.toLowerCase(c));
                start = false;
            } else {
                out.append(c);
            }
            if (spaceSensitive && Character.isWhitespace(c)) start = true;
        }
        return out.toString();
    }

    /** {@code "a\"b"} as its text: the escapes Liquidsoap's strings know. */
    static String unquote(String q) {
        String s = q;
        if (s.length() >= 2
                && (s.startsWith("\"") && s.endsWith("\"")
                        || s.startsWith("'") && s.endsWith("'"))) {
            s = s.substring(1, s.length() - 1);
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\\' || i + 1 >= s.length()) {
                out.append(c);
                continue;
            }
            char e = s.charAt(++i);
            switch (e) {
                case 'n' -> out.append('\n');
                case 't' -> out.append('\t');
                case 'r' -> out.append('\r');
                case 'b' -> out.append('\b');
                case 'a' -> out.append('\007');
                case 'e' -> out.append('\033');
                case 'f' -> out.append('\f');
                case 'v' -> out.append('\013');
                case 'x' -> {
                    if (i + 2 < s.length() + 0 && i + 2 <= s.length() - 1 + 1) {
                        out.append((char) Integer.parseInt(s.substring(i + 1, i + 3), 16));
                        i += 2;
                    }
                }
                case 'u' -> {
                    out.append((char) Integer.parseInt(s.substring(i + 1, i + 5), 16));
                    i += 4;
                }
                default -> {
                    if (Character.isDigit(e) && i + 2 < s.length()) {
                        out.append((char) Integer.parseInt(s.substring(i, i + 3), 8));
                        i += 2;
                    } else {
                        out.append(e);
                    }
                }
            }
        }
        return out.toString();
    }

    private static String digest(String s) {
        try {
            return HexFormat.of()
                    .formatHex(
                            MessageDigest.getInstance("MD5")
                                    .digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static List<Object> unmodifiable(List<Object> l) {
        return Collections.unmodifiableList(l);
    }
}
