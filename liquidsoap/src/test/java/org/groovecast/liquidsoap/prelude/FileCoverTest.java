package org.groovecast.liquidsoap.prelude;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.groovecast.liquidsoap.eval.Liq;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** file.cover: the picture in a file's own tags. */
class FileCoverTest {
    /** A picture's bytes: not UTF-8, with a NUL and an 0xFF 0x00 pair unsynchronisation adds to. */
    private static final byte[] PICTURE = {(byte) 0x89, 'P', 'N', 'G', 0, 1, (byte) 0xff, 0, 'x'};

    @TempDir Path dir;

    private static byte[] bytes(Object... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object p : parts) {
            if (p instanceof byte[] b) out.writeBytes(b);
            else if (p instanceof Integer i) out.write(i);
            else out.writeBytes(((String) p).getBytes(StandardCharsets.ISO_8859_1));
        }
        return out.toByteArray();
    }

    private static byte[] be32(int n) {
        return new byte[] {(byte) (n >>> 24), (byte) (n >>> 16), (byte) (n >>> 8), (byte) n};
    }

    private static byte[] syncsafe(int n) {
        return new byte[] {
            (byte) (n >>> 21 & 0x7f),
            (byte) (n >>> 14 & 0x7f),
            (byte) (n >>> 7 & 0x7f),
            (byte) (n & 0x7f)
        };
    }

    private String cover(String name, byte[] content) throws IOException {
        Path f = dir.resolve(name);
        Files.write(f, content);
        return Liq.value(
                "c = file.cover("
                        + "\""
                        + f
                        + "\""
                        + ")\n"
                        + "if null.defined(c) then c = null.get(c)\n"
                        + "(string.length(c), c == file.contents("
                        + "\""
                        + dir.resolve("pic")
                        + "\""
                        + "), c.mime) else (0, false, \"none\") end");
    }

    @Test
    void picturesAreReadFromId3AndFlacTags() throws IOException {
        Files.write(dir.resolve("pic"), PICTURE);
        byte[] text = bytes("TIT2", be32(3), 0, 0, 0, "Hi");
        byte[] apic = bytes(0, "image/png", 0, 3, "cover", 0, PICTURE);
        byte[] v23 = bytes("APIC", be32(apic.length), 0, 0, apic);
        byte[] tag23 = bytes(text, v23, new byte[16]);
        String expected = "(9, true, \"image/png\")";
        assertEquals(
                expected,
                cover("a.mp3", bytes("ID3", 3, 0, 0, syncsafe(tag23.length), tag23, 0xff, 0xfb)));
        // 2.4: syncsafe frame sizes, a frame unsynchronised (0xFF 0x00 0x00) with its data length.
        byte[] unsynced =
                bytes(0, "image/png", 0, 3, "cover", 0, 0x89, "PNG", 0, 1, 0xff, 0, 0, "x");
        byte[] v24 =
                bytes(
                        "APIC",
                        syncsafe(unsynced.length + 4),
                        0,
                        0x03,
                        syncsafe(apic.length),
                        unsynced);
        assertEquals(expected, cover("b.mp3", bytes("ID3", 4, 0, 0, syncsafe(v24.length), v24)));
        byte[] block =
                bytes(
                        be32(3),
                        be32(9),
                        "image/png",
                        be32(0),
                        be32(1),
                        be32(1),
                        be32(24),
                        be32(0),
                        be32(PICTURE.length),
                        PICTURE);
        byte[] streamInfo = new byte[34];
        byte[] flac = bytes("fLaC", 0, 0, 0, 34, streamInfo, 0x86, 0, 0, block.length, block);
        assertEquals(expected, cover("c.flac", flac));
        assertEquals("(0, false, \"none\")", cover("d.mp3", bytes(0xff, 0xfb, 0x90, 0x00)));
        assertTrue(Liq.error("file.cover(\"/nonexistent/x.mp3\")").contains("no such file"));
        Registered.withTypes("file.cover");
    }
}
