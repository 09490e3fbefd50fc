package org.groovecast.net.rtmp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class Amf0Test {

    // ---- round trips ----

    @Test
    void numbersRoundTripAsDoubles() {
        for (Object n :
                List.of(
                        0.0,
                        -0.0,
                        1.0,
                        -1.5,
                        Double.MAX_VALUE,
                        Double.MIN_VALUE,
                        Double.NaN,
                        Double.POSITIVE_INFINITY,
                        Double.NEGATIVE_INFINITY)) {
            assertEquals(n, roundTrip(n));
        }
        // every Number is written as an AMF0 number, so it comes back a Double
        assertEquals(42.0, roundTrip(42));
        assertEquals(7.0, roundTrip(7L));
        assertEquals(2.5, roundTrip(2.5f));
    }

    @Test
    void booleansAndNullRoundTrip() {
        assertEquals(Boolean.TRUE, roundTrip(true));
        assertEquals(Boolean.FALSE, roundTrip(false));
        assertNull(roundTrip(null));
        assertArrayEquals(bytes("05"), encode(null));
        assertArrayEquals(bytes("01 01"), encode(true));
        assertArrayEquals(bytes("01 00"), encode(false));
    }

    @Test
    void stringsRoundTripIncludingUnicode() {
        for (String s :
                List.of(
                        "",
                        "a",
                        "live/stream?key=abc",
                        "héllo wörld",
                        "日本語のストリーム",
                        "emoji 🎶🎧 and 𝄞",
                        "\u0000nul inside")) {
            assertEquals(s, roundTrip(s));
        }
        assertEquals("sb", roundTrip(new StringBuilder("sb"))); // any CharSequence
        // the length prefix counts UTF-8 bytes, not chars: "é" is 2 bytes, "🎶" is 4
        assertArrayEquals(bytes("02 0002 C3A9"), encode("é"));
        assertArrayEquals(bytes("02 0004 F09F8EB6"), encode("🎶"));
    }

    @Test
    void stringPastSixtyFiveThousandBytesBecomesALongString() {
        String atLimit = "x".repeat(0xFFFF);
        byte[] shortForm = encode(atLimit);
        assertEquals(0x02, shortForm[0]);
        assertEquals(1 + 2 + 0xFFFF, shortForm.length);
        assertEquals(atLimit, decode(shortForm));

        String overLimit = "x".repeat(0x10000);
        byte[] longForm = encode(overLimit);
        assertEquals(0x0C, longForm[0]);
        assertArrayEquals(bytes("0C 00010000"), Arrays.copyOf(longForm, 5));
        assertEquals(1 + 4 + 0x10000, longForm.length);
        assertEquals(overLimit, decode(longForm));

        // few chars, many bytes: 30,000 chars of 3 bytes each is 90,000 bytes
        String wide = "語".repeat(30_000);
        byte[] wideForm = encode(wide);
        assertEquals(0x0C, wideForm[0]);
        assertEquals(1 + 4 + 90_000, wideForm.length);
        assertEquals(wide, decode(wideForm));

        // 21,845 chars of 3 bytes is exactly 65,535 bytes: still a short string
        String wideAtLimit = "語".repeat(21_845);
        assertEquals(0x02, encode(wideAtLimit)[0]);
        assertEquals(wideAtLimit, roundTrip(wideAtLimit));

        String emoji = "🎶".repeat(20_000); // 40,000 chars, 80,000 bytes
        assertEquals(0x0C, encode(emoji)[0]);
        assertEquals(emoji, roundTrip(emoji));
    }

    @Test
    void nestedObjectsAndArraysRoundTripInOrder() {
        Map<String, Object> inner = new LinkedHashMap<>();
        inner.put("z", 1.0);
        inner.put("a", "first written, second in the alphabet");
        inner.put("", "an empty key is a key too");
        inner.put("nothing", null);
        Map<String, Object> outer = new LinkedHashMap<>();
        outer.put("inner", inner);
        outer.put(
                "list",
                new ArrayList<>(
                        Arrays.asList(
                                1.0,
                                "two",
                                true,
                                null,
                                List.of(),
                                List.of(List.of(3.0)),
                                Map.of("k", "v"))));
        outer.put("emptyObject", new LinkedHashMap<>());
        outer.put("ünï", "côdé");

        Object back = roundTrip(outer);
        assertEquals(outer, back);
        assertInstanceOf(LinkedHashMap.class, back);
        assertEquals(
                List.of("inner", "list", "emptyObject", "ünï"),
                List.copyOf(((Map<?, ?>) back).keySet()));
        assertEquals(
                List.of("z", "a", "", "nothing"),
                List.copyOf(((Map<?, ?>) ((Map<?, ?>) back).get("inner")).keySet()));
        assertInstanceOf(ArrayList.class, ((Map<?, ?>) back).get("list"));
    }

    @Test
    void mapKeysAreWrittenAsTheirStringValue() {
        Map<Object, Object> m = new LinkedHashMap<>();
        m.put(1, "one");
        m.put(null, "null");
        assertEquals(Map.of("1", "one", "null", "null"), roundTrip(m));
    }

    @Test
    void emptyContainersHaveTheirMinimalForm() {
        assertArrayEquals(bytes("03 0000 09"), encode(Map.of()));
        assertArrayEquals(bytes("0A 00000000"), encode(List.of()));
    }

    @Test
    void readStopsAfterOneValueAndReadAllTakesTheRest() {
        ByteBuf buf = Unpooled.buffer();
        Amf0.write(buf, "play");
        Amf0.write(buf, 0.0);
        Amf0.write(buf, null);
        Amf0.write(buf, "stream");
        assertEquals("play", Amf0.read(buf));
        assertEquals(1 + 8 + 1 + 1 + 2 + 6, buf.readableBytes());
        assertEquals(Arrays.asList(0.0, null, "stream"), Amf0.readAll(buf));
        assertFalse(buf.isReadable());
        assertEquals(List.of(), Amf0.readAll(Unpooled.EMPTY_BUFFER));
    }

    // ---- a known encoding, byte for byte ----

    /** The reply a server sends to an RTMP {@code connect}. */
    private static final byte[] CONNECT_RESULT =
            new Bytes()
                    .hex("02 0007")
                    .ascii("_result")
                    .hex("00 3FF0000000000000")
                    .hex("03")
                    .hex("0006")
                    .ascii("fmsVer")
                    .hex("02 000D")
                    .ascii("FMS/3,0,1,123")
                    .hex("000C")
                    .ascii("capabilities")
                    .hex("00 403F000000000000")
                    .hex("0000 09")
                    .hex("03")
                    .hex("0005")
                    .ascii("level")
                    .hex("02 0006")
                    .ascii("status")
                    .hex("0004")
                    .ascii("code")
                    .hex("02 001D")
                    .ascii("NetConnection.Connect.Success")
                    .hex("000B")
                    .ascii("description")
                    .hex("02 0015")
                    .ascii("Connection succeeded.")
                    .hex("000E")
                    .ascii("objectEncoding")
                    .hex("00 0000000000000000")
                    .hex("0000 09")
                    .toByteArray();

    private static List<Object> connectResultValues() {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("fmsVer", "FMS/3,0,1,123");
        properties.put("capabilities", 31.0);
        Map<String, Object> information = new LinkedHashMap<>();
        information.put("level", "status");
        information.put("code", "NetConnection.Connect.Success");
        information.put("description", "Connection succeeded.");
        information.put("objectEncoding", 0.0);
        return List.of("_result", 1.0, properties, information);
    }

    @Test
    void connectResultIsEncodedExactlyAndReadBackIdentically() {
        ByteBuf out = Unpooled.buffer();
        for (Object v : connectResultValues()) {
            Amf0.write(out, v);
        }
        assertEquals(HexFormat.of().formatHex(CONNECT_RESULT), ByteBufUtil.hexDump(out));

        List<Object> back = Amf0.readAll(Unpooled.wrappedBuffer(CONNECT_RESULT));
        assertEquals(connectResultValues(), back);
        assertEquals(
                List.of("level", "code", "description", "objectEncoding"),
                List.copyOf(((Map<?, ?>) back.get(3)).keySet()));
    }

    // ---- types only read ----

    @Test
    void ecmaArrayIsReadAsAnOrderedMapWhateverItsCountSays() {
        byte[] metadata =
                new Bytes()
                        .hex("08 00000063") // claims 99 entries, has 3: the end marker decides
                        .hex("0005")
                        .ascii("width")
                        .hex("00 409E000000000000")
                        .hex("0006")
                        .ascii("height")
                        .hex("00 4090E00000000000")
                        .hex("000C")
                        .ascii("videocodecid")
                        .hex("02 0004")
                        .ascii("avc1")
                        .hex("0000 09")
                        .toByteArray();
        Object read = decode(metadata);
        assertInstanceOf(LinkedHashMap.class, read);
        assertEquals(
                List.of("width", "height", "videocodecid"),
                List.copyOf(((Map<?, ?>) read).keySet()));
        assertEquals(Map.of("width", 1920.0, "height", 1080.0, "videocodecid", "avc1"), read);
    }

    @Test
    void writeEcmaArrayWritesMarkerCountAndEntries() {
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("duration", 0.0);
        meta.put("encoder", "groovecast");
        ByteBuf out = Unpooled.buffer();
        Amf0.writeEcmaArray(out, meta);
        byte[] expected =
                new Bytes()
                        .hex("08 00000002")
                        .hex("0008")
                        .ascii("duration")
                        .hex("00 0000000000000000")
                        .hex("0007")
                        .ascii("encoder")
                        .hex("02 000A")
                        .ascii("groovecast")
                        .hex("0000 09")
                        .toByteArray();
        assertEquals(HexFormat.of().formatHex(expected), ByteBufUtil.hexDump(out));
        assertEquals(meta, Amf0.read(out));
    }

    @Test
    void typedObjectIsReadAsAMapWithoutItsClassName() {
        byte[] typed =
                new Bytes()
                        .hex("10 000F")
                        .ascii("flex.Dimensions")
                        .hex("0001")
                        .ascii("w")
                        .hex("00 4074000000000000")
                        .hex("0001")
                        .ascii("h")
                        .hex("03")
                        .hex("0001")
                        .ascii("n")
                        .hex("05")
                        .hex("0000 09")
                        .hex("0000 09")
                        .toByteArray();
        Map<String, Object> h = new LinkedHashMap<>();
        h.put("n", null);
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("w", 320.0);
        expected.put("h", h);
        assertEquals(expected, decode(typed));
    }

    @Test
    void undefinedDateLongStringAndXmlAreRead() {
        assertNull(decode(bytes("06")));
        // 2009-02-13T23:31:30Z with a time zone the reader ignores
        assertEquals(1_234_567_890_000.0, decode(bytes("0B 4271F71FB0450000 FFC4")));
        assertEquals("hi", decode(new Bytes().hex("0C 00000002").ascii("hi").toByteArray()));
        assertEquals("<a/>", decode(new Bytes().hex("0F 00000004").ascii("<a/>").toByteArray()));
        assertEquals(
                List.of(1.0, "x"), decode(bytes("0A 00000002 00 3FF0000000000000 02 0001 78")));
    }

    // ---- hostile input ----

    /** One value of every readable type, nested, to cut at every byte. */
    private static byte[] everyType() {
        return new Bytes()
                .hex("0A 00000008")
                .hex("00 4045000000000000")
                .hex("01 01")
                .hex("02 0003")
                .ascii("abc")
                .hex("0C 00000002")
                .ascii("de")
                .hex("0F 00000001")
                .ascii("x")
                .hex("0B 4271F71FB0450000 0000")
                .hex("08 00000001")
                .hex("0001")
                .ascii("k")
                .hex("06")
                .hex("0000 09")
                .hex("10 0001")
                .ascii("C")
                .hex("0000")
                .hex("05")
                .hex("0001")
                .ascii("o")
                .hex("03 0000 09")
                .hex("0000 09")
                .toByteArray();
    }

    @Test
    void everyTypeEncodingIsValid() {
        List<?> read = (List<?>) decode(everyType());
        assertEquals(8, read.size());
        assertEquals("abc", read.get(2));
        Map<String, Object> typed = new LinkedHashMap<>();
        typed.put("", null); // an empty name followed by a value, not by the end marker
        typed.put("o", Map.of());
        assertEquals(typed, read.get(7));
    }

    @Test
    void truncationAtEveryOffsetIsAProtocolError() {
        for (byte[] valid : List.of(CONNECT_RESULT, everyType())) {
            // where each value of the sequence ends: cut there, what is left is a valid prefix
            List<Integer> ends = new ArrayList<>();
            ByteBuf whole = Unpooled.wrappedBuffer(valid);
            while (whole.isReadable()) {
                Amf0.read(whole);
                ends.add(whole.readerIndex());
            }
            List<Object> all = Amf0.readAll(Unpooled.wrappedBuffer(valid));
            for (int cut = 0; cut < valid.length; cut++) {
                ByteBuf in = Unpooled.wrappedBuffer(valid, 0, cut);
                int at = cut;
                int complete = (int) ends.stream().filter(end -> end <= at).count();
                if (cut == 0 || ends.contains(cut)) {
                    assertEquals(all.subList(0, complete), Amf0.readAll(in), "cut at " + cut);
                    continue;
                }
                RtmpProtocolException e =
                        assertThrows(
                                RtmpProtocolException.class,
                                () -> Amf0.readAll(in),
                                "cut at " + at);
                assertTrue(e.getMessage().startsWith("AMF0: truncated"), e.getMessage());
            }
        }
    }

    @Test
    void truncationInsideOneValueIsAProtocolErrorOnRead() {
        byte[] valid = everyType();
        for (int cut = 0; cut < valid.length; cut++) {
            ByteBuf in = Unpooled.wrappedBuffer(valid, 0, cut);
            assertThrows(RtmpProtocolException.class, () -> Amf0.read(in), "cut at " + cut);
        }
    }

    @Test
    void stringLengthBeyondTheBufferIsRefused() {
        RtmpProtocolException e =
                assertThrows(RtmpProtocolException.class, () -> decode(bytes("02 FFFF 616263")));
        assertTrue(e.getMessage().contains("truncated string"), e.getMessage());
        assertThrows(RtmpProtocolException.class, () -> decode(bytes("0C FFFFFFFF 616263")));
        assertThrows(RtmpProtocolException.class, () -> decode(bytes("0F 7FFFFFFF 61")));
        // a property name and a class name have the same 16-bit length
        assertThrows(RtmpProtocolException.class, () -> decode(bytes("03 FFFF 6162 05")));
        assertThrows(RtmpProtocolException.class, () -> decode(bytes("10 FFFF 61 0000 09")));
    }

    @Test
    void strictArrayCountBeyondTheBufferIsRefusedBeforeReadingElements() {
        RtmpProtocolException e =
                assertThrows(
                        RtmpProtocolException.class, () -> decode(bytes("0A 7FFFFFFF 05 05 05")));
        // refused on the count, not after reading elements until the bytes ran out
        assertTrue(e.getMessage().contains("strict array"), e.getMessage());
        assertThrows(RtmpProtocolException.class, () -> decode(bytes("0A FFFFFFFF 05")));
        assertThrows(RtmpProtocolException.class, () -> decode(bytes("0A 00000004 05 05 05")));
        assertEquals(Arrays.asList(null, null, null), decode(bytes("0A 00000003 05 05 05")));
    }

    @Test
    void tenThousandNestedObjectsAreAProtocolErrorNotAStackOverflow() {
        Bytes open = new Bytes();
        for (int i = 0; i < 10_000; i++) {
            open.hex("03 0001").ascii("a");
        }
        byte[] unclosed = open.hex("05").toByteArray();
        Bytes closed = new Bytes().raw(unclosed);
        for (int i = 0; i < 10_000; i++) {
            closed.hex("0000 09");
        }
        for (byte[] hostile : List.of(unclosed, closed.toByteArray())) {
            RtmpProtocolException e =
                    assertThrows(RtmpProtocolException.class, () -> decode(hostile));
            assertTrue(e.getMessage().contains("nested deeper than 32"), e.getMessage());
        }
    }

    @Test
    void nestingIsAllowedToThirtyTwoLevelsOfAnyContainer() {
        for (String container :
                List.of("03 0001 61", "08 00000001 0001 61", "0A 00000001", "10 0000 0001 61")) {
            boolean array = container.startsWith("0A");
            String close = array ? "" : "0000 09";
            assertDoesNotThrow(() -> readNested(container, close, 32), container);
            assertThrows(
                    RtmpProtocolException.class, () -> readNested(container, close, 33), container);
        }
    }

    private static Object readNested(String open, String close, int levels) {
        Bytes b = new Bytes();
        for (int i = 0; i < levels; i++) {
            b.hex(open);
        }
        b.hex("00 3FF0000000000000");
        for (int i = 0; i < levels; i++) {
            b.hex(close);
        }
        ByteBuf in = Unpooled.wrappedBuffer(b.toByteArray());
        Object v = Amf0.read(in);
        assertFalse(in.isReadable());
        return v;
    }

    @ParameterizedTest
    @ValueSource(ints = {0x04, 0x07, 0x09, 0x0D, 0x0E, 0x11, 0x12, 0xFF})
    void unsupportedMarkersAreProtocolErrors(int marker) {
        RtmpProtocolException e =
                assertThrows(
                        RtmpProtocolException.class,
                        () -> decode(new byte[] {(byte) marker, 0, 0, 0, 0, 0, 0, 0, 0}));
        assertEquals(String.format("AMF0: unsupported type 0x%02X", marker), e.getMessage());
    }

    @Test
    void unsupportedMarkerInsideAnObjectIsAProtocolError() {
        RtmpProtocolException e =
                assertThrows(
                        RtmpProtocolException.class, () -> decode(bytes("03 0001 61 0D 0000 09")));
        assertEquals("AMF0: unsupported type 0x0D", e.getMessage());
    }

    // ---- what cannot be written ----

    @Test
    void valuesWithoutAnAmf0FormAreRefusedAndNothingIsWritten() {
        ByteBuf out = Unpooled.buffer();
        Amf0.write(out, "kept");
        int before = out.writerIndex();

        assertThrows(IllegalArgumentException.class, () -> Amf0.write(out, new Object()));
        assertThrows(IllegalArgumentException.class, () -> Amf0.write(out, 'c'));
        assertThrows(IllegalArgumentException.class, () -> Amf0.write(out, new int[] {1}));
        // the bad value deep inside: what came before it is rolled back too
        assertThrows(
                IllegalArgumentException.class,
                () -> Amf0.write(out, Map.of("ok", List.of(1, 2, Map.of("bad", new Object())))));
        assertThrows(
                IllegalArgumentException.class,
                () -> Amf0.writeEcmaArray(out, Map.of("bad", Thread.currentThread())));
        assertThrows(
                IllegalArgumentException.class,
                () -> Amf0.write(out, Map.of("🎶".repeat(20_000), 1)));
        assertEquals(before, out.writerIndex());
        assertEquals(List.of("kept"), Amf0.readAll(out));
    }

    @Test
    void cyclesAndExcessiveNestingAreRefusedOnWrite() {
        Map<String, Object> cycle = new LinkedHashMap<>();
        cycle.put("self", cycle);
        ByteBuf out = Unpooled.buffer();
        assertThrows(IllegalArgumentException.class, () -> Amf0.write(out, cycle));
        assertEquals(0, out.writerIndex());

        // what write accepts, read accepts: 32 levels of containers, not 33
        Object nested = 1.0;
        for (int i = 0; i < 32; i++) {
            nested = i % 2 == 0 ? List.of(nested) : Map.of("k", nested);
        }
        assertEquals(nested, roundTrip(nested));
        Object tooDeep = List.of(nested);
        assertThrows(IllegalArgumentException.class, () -> Amf0.write(out, tooDeep));
    }

    // ---- helpers ----

    private static Object roundTrip(Object v) {
        return decode(encode(v));
    }

    private static byte[] encode(Object v) {
        ByteBuf out = Unpooled.buffer();
        Amf0.write(out, v);
        return ByteBufUtil.getBytes(out);
    }

    /** Reads exactly one value that must span all of {@code bytes}. */
    private static Object decode(byte[] bytes) {
        ByteBuf in = Unpooled.wrappedBuffer(bytes);
        Object v = Amf0.read(in);
        assertFalse(in.isReadable(), "bytes left after the value");
        return v;
    }

    private static byte[] bytes(String hex) {
        return new Bytes().hex(hex).toByteArray();
    }

    /** Builds expected encodings by hand, independent of the code under test. */
    private static final class Bytes {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        Bytes hex(String hex) {
            out.writeBytes(HexFormat.of().parseHex(hex.replace(" ", "")));
            return this;
        }

        Bytes ascii(String s) {
            out.writeBytes(s.getBytes(StandardCharsets.US_ASCII));
            return this;
        }

        Bytes raw(byte[] b) {
            out.writeBytes(b);
            return this;
        }

        byte[] toByteArray() {
            return out.toByteArray();
        }
    }
}
