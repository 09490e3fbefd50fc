package org.groovecast.liquidsoap.prelude;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import org.groovecast.liquidsoap.eval.Liq;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** metadata.*, cover art and the binary strings they hold. */
class MetadataFunctionsTest {
    /** A picture's bytes: not UTF-8, with a NUL, as real pictures are. */
    private static final byte[] PICTURE = {(byte) 0x89, 'P', 'N', 'G', 0, 1, (byte) 0xff, 'x'};

    private static String b64(byte[] b) {
        return Base64.getEncoder().encodeToString(b);
    }

    private static byte[] bytes(Object... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object p : parts) {
            if (p instanceof byte[] b) out.writeBytes(b);
            else if (p instanceof Integer i) out.write(i);
            else out.writeBytes(((String) p).getBytes(StandardCharsets.UTF_8));
        }
        return out.toByteArray();
    }

    @Test
    void coversAreRemovedAndMetadataExported() {
        assertEquals(
                "[(\"a\", \"A\"), (\"b\", \"B\")]",
                Liq.value(
                        "metadata.cover.remove([(\"a\", \"A\"), (\"apic\", \"X\"), (\"pic\", \"Y\"),"
                                + " (\"b\", \"B\"), (\"cover\", \"Z\"), (\"metadata_block_picture\", \"W\")])"));
        assertEquals(
                "[(\"title\", \"T\"), (\"artist\", \"A\")]",
                Liq.value(
                        "metadata.export([(\"title\", \"T\"), (\"rid\", \"3\"), (\"artist\", \"A\"),"
                                + " (\"filename\", \"/x.mp3\")])"));
        assertEquals(
                "[(\"title\", \"T\")]",
                Liq.value(
                        "settings.encoder.metadata.export := [\"title\"]\n"
                                + "metadata.export([(\"title\", \"T\"), (\"artist\", \"A\")])"));
    }

    @Test
    void metadataToAndFromJson() {
        assertEquals(
                "\"{ \\\"artist\\\": \\\"Artist\\\" }\"",
                Liq.value(
                        "metadata.json.stringify([(\"filename\", \"test.mp3\"), (\"rid\", \"0\"),"
                                + " (\"artist\", \"Artist\")])"));
        assertEquals("\"{}\"", Liq.value("metadata.json.stringify([])"));
        assertEquals(
                "[(\"artist\", \"Artist\")]",
                Liq.value("metadata.json.parse(\"{\\\"artist\\\": \\\"Artist\\\"}\")"));
        assertEquals("[]", Liq.value("metadata.json.parse(\"{}\")"));
        String apic = b64(bytes(0, "image/png", 0, 3, "Front", 0, PICTURE));
        assertEquals(
                "\"{\\\"cover\\\":\\\"data:image/png;base64,"
                        + b64(PICTURE)
                        + "\\\",\\\"title\\\":\\\"T\\\"}\"",
                Liq.value(
                        "metadata.json.stringify(compact=true, [(\"title\", \"T\"), (\"apic\", string.base64.decode(\""
                                + apic
                                + "\"))])"));
    }

    @Test
    void replayGainFromR128OrReplayGainTags() {
        assertEquals("1.0", Liq.value("metadata.replaygain([(\"r128_track_gain\", \"256\")])"));
        assertEquals("null", Liq.value("metadata.replaygain([(\"r128_track_gain\", \"0 foo\")])"));
        assertEquals(
                "-10.385",
                Liq.value("metadata.replaygain([(\"replaygain_track_gain\", \"-10.38500 dB\")])"));
        assertEquals(
                "0.424046",
                Liq.value("metadata.replaygain([(\"replaygain_track_gain\", \"+0.424046\")])"));
        assertEquals(
                "null", Liq.value("metadata.replaygain([(\"replaygain_track_gain\", \"foo\")])"));
        assertEquals(
                "null",
                Liq.value(
                        "metadata.replaygain([(\"r128_track_gain\", \"x\"), (\"replaygain_track_gain\", \"1\")])"));
        assertEquals("null", Liq.value("metadata.replaygain([])"));
    }

    @Test
    void id3AndFlacPicturesAreParsedToTheirBytes() {
        String apic = b64(bytes(0, "image/png", 0, 3, "Front", 0, PICTURE));
        assertEquals(
                "(\"image/png\", 3, \"Front\", \"" + b64(PICTURE) + "\")",
                Liq.value(
                        "c = string.apic.parse(string.base64.decode(\""
                                + apic
                                + "\"))\n(c.mime, c.picture_type, c.description, string.base64.encode(c))"));
        String pic = b64(bytes(0, "JPG", 3, "", 0, PICTURE));
        assertEquals(
                "(\"JPG\", \"image/jpeg\", \"" + b64(PICTURE) + "\")",
                Liq.value(
                        "p = string.pic.parse(string.base64.decode(\""
                                + pic
                                + "\"))\nc = null.get(metadata.cover([(\"pic\", string.base64.decode(\""
                                + pic
                                + "\"))]))\n(p.format, c.mime, string.base64.encode(c))"));
        byte[] flac =
                bytes(
                        0,
                        0,
                        0,
                        3,
                        0,
                        0,
                        0,
                        9,
                        "image/png",
                        0,
                        0,
                        0,
                        1,
                        "d",
                        0,
                        0,
                        0,
                        2,
                        0,
                        0,
                        0,
                        3,
                        0,
                        0,
                        0,
                        24,
                        0,
                        0,
                        0,
                        0,
                        0,
                        0,
                        0,
                        PICTURE.length,
                        PICTURE);
        assertEquals(
                "(\""
                        + b64(flac)
                        + "\", 3, \"image/png\", \"d\", 2, 3, 24, null, \""
                        + b64(PICTURE)
                        + "\")",
                Liq.value(
                        "e = file.metadata.flac.cover.encode(picture_type=3, mime=\"image/png\","
                                + " description=\"d\", width=2, height=3, color_depth=24,"
                                + " string.base64.decode(\""
                                + b64(PICTURE)
                                + "\"))\n"
                                + "c = null.get(file.metadata.flac.cover.decode(e))\n"
                                + "(string.base64.encode(e), c.picture_type, c.mime, c.description,"
                                + " c.width, c.height, c.color_depth, c.number_of_colors, string.base64.encode(c))"));
        assertEquals(
                "(\"image/png\", true)",
                Liq.value(
                        "c = null.get(string.data_uri.decode(string.data_uri.encode(mime=\"image/png\", \"x\")))\n"
                                + "(c.mime, c == \"x\")"));
        Registered.withTypes(
                "metadata.cover",
                "metadata.cover.remove",
                "metadata.export",
                "metadata.json.stringify",
                "metadata.json.parse",
                "metadata.replaygain",
                "string.apic.parse",
                "string.pic.parse",
                "file.metadata.flac.cover.decode",
                "file.metadata.flac.cover.encode",
                "string.data_uri.encode",
                "string.data_uri.decode");
    }

    @Test
    void binaryStringsGoBackOutAsTheSameBytes(@TempDir Path dir) throws Exception {
        Path png = dir.resolve("p.bin");
        Path copy = dir.resolve("copy.bin");
        Path text = dir.resolve("t.txt");
        Liq.value(
                "file.write(data=string.base64.decode(\""
                        + b64(PICTURE)
                        + "\"), \""
                        + png
                        + "\")\n"
                        + "file.write(data=file.contents(\""
                        + png
                        + "\"), \""
                        + copy
                        + "\")\n"
                        + "file.write(data=\"été\", \""
                        + text
                        + "\")");
        assertArrayEquals(PICTURE, Files.readAllBytes(png));
        assertArrayEquals(PICTURE, Files.readAllBytes(copy));
        assertEquals("été", Files.readString(text, StandardCharsets.UTF_8));
        assertEquals("\"w6l0w6k=\"", Liq.value("string.base64.encode(\"été\")"));
        assertEquals(
                "8",
                Liq.value("string.bytes.length(string.base64.decode(\"" + b64(PICTURE) + "\"))"));
    }

    @Test
    void fileUrisAndTheCounts() {
        assertEquals(
                "[\"/path/to/file\", \"/path/to/file\", \"/path/to/my file\"]",
                Liq.value(
                        "list.map(fun (u) -> null.get(file_protocol(rlog=fun (_) -> (), maxtime=1., u)),"
                                + " [\"file:///path/to/file\", \"file:/path/to/file\", \"file:/path/to/my%20file\"])"));
        assertEquals(
                "null", Liq.value("file_protocol(rlog=fun (_) -> (), maxtime=1., \"http://x\")"));
        assertEquals("true", Liq.value("liquidsoap.functions.count() > 100"));
        Registered.withTypes("file_protocol", "liquidsoap.functions.count");
    }
}
