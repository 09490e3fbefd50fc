package org.groovecast.liquidsoap.prelude;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.groovecast.liquidsoap.eval.Errors;
import org.groovecast.liquidsoap.eval.LiqError;
import org.groovecast.liquidsoap.eval.Rec;
import org.groovecast.liquidsoap.eval.Values;

/**
 * Cover art in metadata: ID3v2's APIC and PIC frames, FLAC's and Vorbis comments'
 * METADATA_BLOCK_PICTURE, Ogg's base64 {@code coverart}, and data URIs. The pictures are binary
 * strings (see {@link BinaryStrings}); each answer is the picture with its fields ({@code mime},
 * {@code picture_type}, {@code description}...), as Liquidsoap's functions of the same names.
 */
final class CoverArt {
    private CoverArt() {}

    private static final Pattern DATA_URI =
            Pattern.compile("^data:([/\\w.+-]+)(;base64)?,(.+)$", Pattern.DOTALL);

    static void register(Library lib) {
        lib.function(
                "string.apic.parse",
                "(string) -> string.{mime : string, picture_type : int, description : string}",
                "An ID3v2 APIC frame: the picture, with its mime type, picture type and description.",
                a -> apic(BinaryStrings.bytes(a.string(0))));
        lib.function(
                "string.pic.parse",
                "(string) -> string.{format : string, picture_type : int, description : string}",
                "An ID3v2.2 PIC frame: the picture, with its format (JPG, PNG), picture type and description.",
                a -> pic(BinaryStrings.bytes(a.string(0))));
        lib.function(
                "file.metadata.flac.cover.decode",
                "(string) -> string.{picture_type : int, mime : string, description : string, width : int, "
                        + "height : int, color_depth : int, number_of_colors : int?}?",
                "A FLAC picture block (METADATA_BLOCK_PICTURE): the picture with its fields, null when it holds none.",
                a -> flacDecode(BinaryStrings.bytes(a.string(0))));
        lib.function(
                "file.metadata.flac.cover.encode",
                "(picture_type : int, mime : string, ?description : string, width : int, height : int, "
                        + "color_depth : int, ?number_of_colors : int?, string) -> string",
                "A picture as a FLAC picture block (METADATA_BLOCK_PICTURE).",
                Map.of("description", ""),
                a ->
                        flacEncode(
                                (int) a.integer(0),
                                a.string(1),
                                a.string(2),
                                new long[] {
                                    a.integer(3),
                                    a.integer(4),
                                    a.integer(5),
                                    a.isNull(6) ? 0 : a.integer(6)
                                },
                                BinaryStrings.bytes(a.string(7))));
        lib.function(
                "string.data_uri.encode",
                "(?base64 : bool, mime : string, string) -> string",
                "data:MIME;base64,DATA (or data:MIME,DATA with base64=false).",
                Map.of("base64", true),
                a ->
                        "data:"
                                + a.string(1)
                                + (a.bool(0)
                                        ? ";base64,"
                                                + Base64.getEncoder()
                                                        .encodeToString(
                                                                BinaryStrings.bytes(a.string(2)))
                                        : "," + a.string(2)));
        lib.function(
                "string.data_uri.decode",
                "(string) -> string.{mime : string}?",
                "The data of a data URI with its mime type, null when the string is none.",
                a -> {
                    Matcher m = DATA_URI.matcher(a.string(0));
                    if (!m.matches()) return null;
                    String data = m.group(3);
                    if (m.group(2) != null) {
                        try {
                            data = BinaryStrings.of(Base64.getDecoder().decode(data.strip()));
                        } catch (IllegalArgumentException e) {
                            return null;
                        }
                    }
                    return Rec.with(data, "mime", m.group(1));
                });
        lib.function(
                "metadata.cover",
                "(?coverart_mime : string?, [string * string]) -> string.{mime : string}?",
                "The cover in metadata (coverart with coverart_mime, metadata_block_picture, apic, pic), or null.",
                a -> cover(a.isNull(0) ? null : a.string(0), a.list(1)));
    }

    static Object cover(String coverartMime, List<Object> metadata) {
        Map<String, String> m = new LinkedHashMap<>();
        for (Object kv : metadata) {
            if (Values.base(kv) instanceof org.groovecast.liquidsoap.eval.Tuple t && t.size() == 2)
                m.putIfAbsent(
                        String.valueOf(Values.base(t.get(0))),
                        String.valueOf(Values.base(t.get(1))));
        }
        try {
            if (m.containsKey("coverart") && coverartMime != null) {
                byte[] data = Base64.getDecoder().decode(m.get("coverart").strip());
                return Rec.with(BinaryStrings.of(data), "mime", coverartMime);
            }
            if (m.containsKey("metadata_block_picture")) {
                String block = m.get("metadata_block_picture");
                // Vorbis comments hold it in base64, FLAC's own metadata as the bytes.
                byte[] bytes = BinaryStrings.bytes(block);
                if (!BinaryStrings.isBinary(block)) {
                    try {
                        bytes = Base64.getDecoder().decode(block.strip());
                    } catch (IllegalArgumentException notBase64) {
                        // the raw block
                    }
                }
                return flacDecode(bytes);
            }
            if (!m.getOrDefault("apic", "").isEmpty())
                return apic(BinaryStrings.bytes(m.get("apic")));
            if (!m.getOrDefault("pic", "").isEmpty()) {
                Object pic = pic(BinaryStrings.bytes(m.get("pic")));
                String format = String.valueOf(Values.fields(pic).get("format"));
                String mime =
                        switch (format.toUpperCase(java.util.Locale.ROOT)) {
                            case "JPG" -> "image/jpeg";
                            case "PNG" -> "image/png";
                            default -> "application/octet-stream";
                        };
                return Rec.with(pic, "mime", mime);
            }
        } catch (IllegalArgumentException | LiqError e) {
            return null;
        }
        return null;
    }

    /** Where a NUL-terminated string of {@code encoding} starting at {@code from} ends. */
    private static int end(byte[] b, int from, int encoding) {
        if (encoding == 1 || encoding == 2) {
            for (int i = from; i + 1 < b.length; i += 2) if (b[i] == 0 && b[i + 1] == 0) return i;
        } else {
            for (int i = from; i < b.length; i++) if (b[i] == 0) return i;
        }
        throw Errors.invalid("string.apic.parse: unterminated string in the frame");
    }

    private static Charset charset(int encoding) {
        return switch (encoding) {
            case 0 -> StandardCharsets.ISO_8859_1;
            case 1 -> StandardCharsets.UTF_16;
            case 2 -> StandardCharsets.UTF_16BE;
            case 3 -> StandardCharsets.UTF_8;
            default -> throw Errors.invalid("unknown ID3v2 text encoding " + encoding);
        };
    }

    private static Object apic(byte[] b) {
        if (b.length < 4) throw Errors.invalid("string.apic.parse: frame too short");
        int encoding = b[0];
        int mimeEnd = end(b, 1, 0);
        String mime = new String(b, 1, mimeEnd - 1, StandardCharsets.ISO_8859_1);
        int type = b[mimeEnd + 1] & 0xff;
        int descStart = mimeEnd + 2;
        int descEnd = end(b, descStart, encoding);
        String description = new String(b, descStart, descEnd - descStart, charset(encoding));
        int dataStart = descEnd + (encoding == 1 || encoding == 2 ? 2 : 1);
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("mime", mime);
        f.put("picture_type", (long) type);
        f.put("description", description);
        return Rec.with(BinaryStrings.of(Arrays.copyOfRange(b, dataStart, b.length)), f);
    }

    private static Object pic(byte[] b) {
        if (b.length < 6) throw Errors.invalid("string.pic.parse: frame too short");
        int encoding = b[0];
        String format = new String(b, 1, 3, StandardCharsets.ISO_8859_1);
        int type = b[4] & 0xff;
        int descEnd = end(b, 5, encoding);
        String description = new String(b, 5, descEnd - 5, charset(encoding));
        int dataStart = descEnd + (encoding == 1 || encoding == 2 ? 2 : 1);
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("format", format);
        f.put("picture_type", (long) type);
        f.put("description", description);
        return Rec.with(BinaryStrings.of(Arrays.copyOfRange(b, dataStart, b.length)), f);
    }

    /** METADATA_BLOCK_PICTURE: big-endian 32-bit lengths, each string as many bytes as it says. */
    private static Object flacDecode(byte[] b) {
        ByteBuffer in = ByteBuffer.wrap(b);
        try {
            int type = in.getInt();
            String mime = text(in, StandardCharsets.US_ASCII);
            String description = text(in, StandardCharsets.UTF_8);
            long width = in.getInt() & 0xffffffffL;
            long height = in.getInt() & 0xffffffffL;
            long depth = in.getInt() & 0xffffffffL;
            long colors = in.getInt() & 0xffffffffL;
            int length = in.getInt();
            if (length <= 0 || length > in.remaining()) return null;
            byte[] data = new byte[length];
            in.get(data);
            Map<String, Object> f = new LinkedHashMap<>();
            f.put("picture_type", (long) type);
            f.put("mime", mime.isEmpty() ? "image/" : mime);
            f.put("description", description);
            f.put("width", width);
            f.put("height", height);
            f.put("color_depth", depth);
            f.put("number_of_colors", colors > 0 ? colors : null);
            return Rec.with(BinaryStrings.of(data), f);
        } catch (java.nio.BufferUnderflowException | IllegalArgumentException e) {
            return null;
        }
    }

    private static String text(ByteBuffer in, Charset charset) {
        int n = in.getInt();
        if (n < 0 || n > in.remaining()) throw new IllegalArgumentException("length " + n);
        byte[] b = new byte[n];
        in.get(b);
        return new String(b, charset);
    }

    private static String flacEncode(
            int type, String mime, String description, long[] sizes, byte[] data) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int32(out, type);
        bytes(out, mime.getBytes(StandardCharsets.US_ASCII));
        bytes(out, description.getBytes(StandardCharsets.UTF_8));
        for (long v : sizes) int32(out, v);
        bytes(out, data);
        return BinaryStrings.of(out.toByteArray());
    }

    private static void bytes(ByteArrayOutputStream out, byte[] b) {
        int32(out, b.length);
        out.writeBytes(b);
    }

    private static void int32(ByteArrayOutputStream out, long v) {
        out.write((int) (v >>> 24) & 0xff);
        out.write((int) (v >>> 16) & 0xff);
        out.write((int) (v >>> 8) & 0xff);
        out.write((int) v & 0xff);
    }
}
