package org.groovecast.net.rtmp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * AMF0, the serialization RTMP carries its command messages (type 20: {@code connect}, {@code
 * createStream}, {@code publish}, {@code _result}, {@code onStatus} ...) and data messages (type
 * 18: {@code @setDataFrame}, {@code onMetaData}) in: a message body is a plain sequence of AMF0
 * values, the first of a command being its name and the second its transaction id.
 *
 * <p>Values map to plain Java: number and date to {@link Double} (a date is its milliseconds, its
 * time zone dropped), boolean to {@link Boolean}, string, long string and XML document to {@link
 * String}, object, ECMA array and typed object to an insertion-ordered {@code LinkedHashMap<String,
 * Object>}, strict array to {@code ArrayList<Object>}, null and undefined to {@code null}.
 * References, movie clips, record sets and the switch to AMF3 are refused as unsupported: commands
 * and metadata do without them, and references would need a per-message table that would itself
 * have to be bounded.
 *
 * <p>Everything read comes from a peer that may be hostile, so reading is bounded:
 *
 * <ul>
 *   <li>every length and count is checked against {@link ByteBuf#readableBytes()} before it is
 *       used, so a forged length can never allocate more than the message already holds;
 *   <li>objects and arrays nest at most 32 deep, so a forged nesting cannot exhaust the event
 *       loop's stack;
 *   <li>any malformed or truncated input ends in an {@link RtmpProtocolException}, never in an
 *       {@link IndexOutOfBoundsException} or another unchecked surprise, so the session closes
 *       cleanly with a reason.
 * </ul>
 *
 * After such an exception the reader index is unspecified: the message is lost anyway.
 *
 * <p>Writing takes only our own values, so a value with no AMF0 form is a programming error ({@link
 * IllegalArgumentException}); the buffer is then left as it was before the call.
 */
public final class Amf0 {
    /** How deep objects and arrays may nest, on reading and on writing. */
    static final int MAX_DEPTH = 32;

    static final int NUMBER = 0x00;
    static final int BOOLEAN = 0x01;
    static final int STRING = 0x02;
    static final int OBJECT = 0x03;
    static final int NULL = 0x05;
    static final int UNDEFINED = 0x06;
    static final int ECMA_ARRAY = 0x08;
    static final int OBJECT_END = 0x09;
    static final int STRICT_ARRAY = 0x0A;
    static final int DATE = 0x0B;
    static final int LONG_STRING = 0x0C;
    static final int XML_DOCUMENT = 0x0F;
    static final int TYPED_OBJECT = 0x10;

    private static final int MAX_SHORT_STRING = 0xFFFF;
    /*
     * A strict array's count is checked against the readable bytes, but up to 32 nested arrays
     * can each claim almost the whole message before failing; capping the initial capacity keeps
     * that from multiplying the message size, while real arrays still grow to their length.
     */
    private static final int MAX_PRESIZE = 64;

    private Amf0() {}

    /**
     * Reads one value at the reader index, advancing it past the value.
     *
     * @throws RtmpProtocolException if the value is malformed, truncated, nested deeper than 32 or
     *     of an unsupported type
     */
    public static Object read(ByteBuf in) {
        return readValue(in, 0);
    }

    /**
     * Reads values until the buffer has no readable bytes left, as in the body of a command or data
     * message.
     *
     * @throws RtmpProtocolException as {@link #read(ByteBuf)} does
     */
    public static List<Object> readAll(ByteBuf in) {
        List<Object> values = new ArrayList<>();
        while (in.isReadable()) {
            values.add(readValue(in, 0));
        }
        return values;
    }

    private static Object readValue(ByteBuf in, int depth) {
        need(in, 1, "type marker");
        int marker = in.readUnsignedByte();
        return switch (marker) {
            case NUMBER -> readDouble(in, "number");
            case BOOLEAN -> {
                need(in, 1, "boolean");
                yield in.readByte() != 0;
            }
            case STRING -> readString(in, readLength16(in, "string"));
            case LONG_STRING -> readString(in, readLength32(in, "long string"));
            case XML_DOCUMENT -> readString(in, readLength32(in, "XML document"));
            case OBJECT, ECMA_ARRAY, TYPED_OBJECT -> {
                int inner = enter(depth);
                if (marker == ECMA_ARRAY) {
                    // the end marker, not the count, ends the entries: a wrong count cannot mislead
                    // us
                    need(in, 4, "ECMA array count");
                    in.skipBytes(4);
                } else if (marker == TYPED_OBJECT) {
                    in.skipBytes(readLength16(in, "class name"));
                }
                yield readProperties(in, inner);
            }
            case NULL, UNDEFINED -> null;
            case STRICT_ARRAY -> readStrictArray(in, enter(depth));
            case DATE -> {
                double millis = readDouble(in, "date");
                need(in, 2, "date time zone");
                in.skipBytes(2); // reserved by the spec, always 0, and useless next to UTC millis
                yield millis;
            }
            default ->
                    throw new RtmpProtocolException(
                            "AMF0: unsupported type 0x" + String.format("%02X", marker));
        };
    }

    private static int enter(int depth) {
        if (depth >= MAX_DEPTH) {
            throw new RtmpProtocolException("AMF0: nested deeper than " + MAX_DEPTH);
        }
        return depth + 1;
    }

    private static Map<String, Object> readProperties(ByteBuf in, int depth) {
        Map<String, Object> map = new LinkedHashMap<>();
        while (true) {
            String key = readString(in, readLength16(in, "property name"));
            if (key.isEmpty()) {
                need(in, 1, "object end");
                if (in.getUnsignedByte(in.readerIndex()) == OBJECT_END) {
                    in.skipBytes(1);
                    return map;
                }
                // an empty name followed by a value is a legal property named ""
            }
            map.put(key, readValue(in, depth));
        }
    }

    private static List<Object> readStrictArray(ByteBuf in, int depth) {
        int count = readLength32(in, "strict array");
        // readLength32 already refused a count above the readable bytes: every element
        // takes at least its one marker byte, so a larger count can only be a lie
        List<Object> list = new ArrayList<>(Math.min(count, MAX_PRESIZE));
        for (int i = 0; i < count; i++) {
            list.add(readValue(in, depth));
        }
        return list;
    }

    private static double readDouble(ByteBuf in, String what) {
        need(in, 8, what);
        return in.readDouble();
    }

    private static int readLength16(ByteBuf in, String what) {
        need(in, 2, what + " length");
        int length = in.readUnsignedShort();
        need(in, length, what);
        return length;
    }

    private static int readLength32(ByteBuf in, String what) {
        need(in, 4, what + " length");
        long length = in.readUnsignedInt();
        need(in, length, what);
        return (int) length; // at most readableBytes(), hence an int
    }

    private static String readString(ByteBuf in, int length) {
        if (length == 0) {
            return "";
        }
        // decodes straight from the buffer, without copying the bytes out first
        String s = in.toString(in.readerIndex(), length, StandardCharsets.UTF_8);
        in.skipBytes(length);
        return s;
    }

    private static void need(ByteBuf in, long bytes, String what) {
        if (bytes > in.readableBytes()) {
            throw new RtmpProtocolException(
                    "AMF0: truncated "
                            + what
                            + ", "
                            + bytes
                            + " bytes needed, "
                            + in.readableBytes()
                            + " left");
        }
    }

    /**
     * Writes one value: {@code null} as null, a {@link Number} as a number (a double), a {@link
     * Boolean}, a {@link CharSequence} as a string (a long string past 65535 UTF-8 bytes), a {@link
     * Map} as an object with {@code String.valueOf} keys, a {@link List} as a strict array, their
     * contents recursively.
     *
     * @throws IllegalArgumentException if the value, or one inside it, has no AMF0 form, an object
     *     key exceeds 65535 UTF-8 bytes, or nesting goes deeper than 32 (as a map containing itself
     *     would); nothing is written then
     */
    public static void write(ByteBuf out, Object v) {
        int start = out.writerIndex();
        try {
            writeValue(out, v, 0);
        } catch (IllegalArgumentException e) {
            out.writerIndex(start);
            throw e;
        }
    }

    /**
     * Writes {@code m} as an ECMA array, the form {@code onMetaData} is expected in; values as in
     * {@link #write(ByteBuf, Object)}.
     *
     * @throws IllegalArgumentException as {@link #write(ByteBuf, Object)} does; nothing is written
     *     then
     */
    public static void writeEcmaArray(ByteBuf out, Map<String, ?> m) {
        int start = out.writerIndex();
        try {
            out.writeByte(ECMA_ARRAY);
            out.writeInt(m.size());
            writeProperties(out, m, 1);
        } catch (IllegalArgumentException e) {
            out.writerIndex(start);
            throw e;
        }
    }

    private static void writeValue(ByteBuf out, Object v, int depth) {
        switch (v) {
            case null -> out.writeByte(NULL);
            case Number n -> {
                out.writeByte(NUMBER);
                out.writeDouble(n.doubleValue());
            }
            case Boolean b -> {
                out.writeByte(BOOLEAN);
                out.writeByte(b ? 1 : 0);
            }
            case CharSequence s -> writeString(out, s);
            case Map<?, ?> m -> {
                int inner = enterWrite(depth);
                out.writeByte(OBJECT);
                writeProperties(out, m, inner);
            }
            case List<?> l -> {
                int inner = enterWrite(depth);
                out.writeByte(STRICT_ARRAY);
                out.writeInt(l.size());
                for (Object e : l) {
                    writeValue(out, e, inner);
                }
            }
            default ->
                    throw new IllegalArgumentException(
                            "AMF0: no encoding for " + v.getClass().getName());
        }
    }

    private static int enterWrite(int depth) {
        if (depth >= MAX_DEPTH) {
            // what we would write deeper, read() refuses; and a cycle would never end
            throw new IllegalArgumentException(
                    "AMF0: nested deeper than " + MAX_DEPTH + " (a cycle?)");
        }
        return depth + 1;
    }

    private static void writeProperties(ByteBuf out, Map<?, ?> m, int depth) {
        for (Map.Entry<?, ?> e : m.entrySet()) {
            String key = String.valueOf(e.getKey());
            if (mayExceedShort(key) && ByteBufUtil.utf8Bytes(key) > MAX_SHORT_STRING) {
                throw new IllegalArgumentException("AMF0: object key longer than 65535 bytes");
            }
            writeUtf8(out, key, false);
            writeValue(out, e.getValue(), depth);
        }
        out.writeShort(0);
        out.writeByte(OBJECT_END);
    }

    private static void writeString(ByteBuf out, CharSequence s) {
        boolean longForm = mayExceedShort(s) && ByteBufUtil.utf8Bytes(s) > MAX_SHORT_STRING;
        out.writeByte(longForm ? LONG_STRING : STRING);
        writeUtf8(out, s, longForm);
    }

    /** Whether {@code s} can need more than 65535 UTF-8 bytes; false spares counting them. */
    private static boolean mayExceedShort(CharSequence s) {
        return s.length() > MAX_SHORT_STRING / 3; // a UTF-16 char never takes more than 3 bytes
    }

    private static void writeUtf8(ByteBuf out, CharSequence s, boolean longForm) {
        // encode straight into the buffer and patch the length prefix afterwards, rather than
        // encoding into a byte[] first just to learn its length
        int lengthAt = out.writerIndex();
        if (longForm) {
            out.writeInt(0);
        } else {
            out.writeShort(0);
        }
        int written = ByteBufUtil.writeUtf8(out, s);
        if (longForm) {
            out.setInt(lengthAt, written);
        } else {
            out.setShort(lengthAt, written);
        }
    }
}
