package org.groovecast.ffmpeg.hls;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The PMT rewrite on a transport stream of a PAT, a PMT as FFmpeg writes it for AAC and timed ID3,
 * and payload packets, however FFmpeg's writes cut it.
 */
class TsMetadataPointerTest {
    private static final int PMT_PID = 0x1000;

    @TempDir Path dir;

    @Test
    void thePmtGainsTheMetadataPointerDescriptorWithItsCrcAndNothingElseChanges() throws Exception {
        byte[] in = stream(pmt(false));
        byte[] out = through(in, in.length);
        assertEquals(in.length, out.length);
        assertArrayEquals(Arrays.copyOfRange(in, 0, 188), Arrays.copyOfRange(out, 0, 188), "PAT");
        assertArrayEquals(
                Arrays.copyOfRange(in, 376, in.length),
                Arrays.copyOfRange(out, 376, in.length),
                "the packets after the PMT");
        byte[] expected = stream(pmt(true));
        assertArrayEquals(
                Arrays.copyOfRange(expected, 188, 376),
                Arrays.copyOfRange(out, 188, 376),
                "the PMT as it would be written with the descriptor");
    }

    @Test
    void writesCutAnywhereGiveTheSameBytes() throws Exception {
        byte[] in = stream(pmt(false));
        byte[] whole = through(in, in.length);
        for (int chunk : new int[] {1, 7, 100, 187, 189, 300, 377})
            assertArrayEquals(whole, through(in, chunk), "writes of " + chunk + " bytes");
    }

    @Test
    void aPmtThatHasTheDescriptorAlreadyPassesAsItIs() throws Exception {
        byte[] in = stream(pmt(true));
        assertArrayEquals(in, through(in, 50));
    }

    /** What the rewrite gives for {@code in}, written in pieces of {@code chunk} bytes. */
    private byte[] through(byte[] in, int chunk) throws IOException {
        Path file = Files.createTempFile(dir, "seg", ".ts");
        TsMetadataPointer p = new TsMetadataPointer();
        try (FileChannel f = FileChannel.open(file, StandardOpenOption.WRITE)) {
            p.to(f);
            for (int at = 0; at < in.length; at += chunk) {
                // a direct buffer, as FFmpeg's I/O buffer is
                ByteBuffer b = ByteBuffer.allocateDirect(Math.min(chunk, in.length - at));
                b.put(in, at, b.capacity()).flip();
                assertEquals(b.capacity(), p.write(b));
            }
        }
        return Files.readAllBytes(file);
    }

    /** A PAT naming program 1 at {@link #PMT_PID}, the PMT, and three packets of payload. */
    private static byte[] stream(byte[] pmtSection) {
        ByteBuffer ts = ByteBuffer.allocate(5 * 188);
        byte[] pat = {
            0x00,
            (byte) 0xb0,
            13,
            0x00,
            0x01,
            (byte) 0xc1,
            0,
            0,
            0x00,
            0x01,
            (byte) (0xe0 | PMT_PID >> 8),
            (byte) PMT_PID,
            0,
            0,
            0,
            0
        };
        crc(pat);
        ts.put(packet(0, pat));
        ts.put(packet(PMT_PID, pmtSection));
        for (int i = 0; i < 3; i++) {
            byte[] p = new byte[188];
            Arrays.fill(p, (byte) (0x40 + i));
            p[0] = 0x47;
            p[1] = 0x01;
            p[2] = 0x00;
            p[3] = (byte) (0x10 | i);
            ts.put(p);
        }
        return ts.array();
    }

    /** One packet starting a section: the pointer field 0, the section, stuffing. */
    private static byte[] packet(int pid, byte[] section) {
        byte[] p = new byte[188];
        Arrays.fill(p, (byte) 0xff);
        p[0] = 0x47;
        p[1] = (byte) (0x40 | pid >> 8);
        p[2] = (byte) pid;
        p[3] = 0x10;
        p[4] = 0;
        System.arraycopy(section, 0, p, 5, section.length);
        return p;
    }

    /** FFmpeg's PMT for AAC on 0x100 and timed ID3 on 0x101, with the pointer descriptor or not. */
    private static byte[] pmt(boolean pointer) {
        byte[] metadata = {
            0x26,
            13,
            (byte) 0xff,
            (byte) 0xff,
            'I',
            'D',
            '3',
            ' ',
            (byte) 0xff,
            'I',
            'D',
            '3',
            ' ',
            0,
            0x0f
        };
        byte[] info =
                pointer
                        ? new byte[] {
                            0x25,
                            15,
                            (byte) 0xff,
                            (byte) 0xff,
                            'I',
                            'D',
                            '3',
                            ' ',
                            (byte) 0xff,
                            'I',
                            'D',
                            '3',
                            ' ',
                            0,
                            0x1f,
                            0x00,
                            0x01
                        }
                        : new byte[0];
        ByteBuffer s = ByteBuffer.allocate(12 + info.length + 5 + 5 + metadata.length + 4);
        int length = s.capacity() - 3;
        s.put((byte) 0x02).putShort((short) (0xb000 | length)).putShort((short) 1);
        s.put((byte) 0xc1).put((byte) 0).put((byte) 0);
        s.putShort((short) (0xe000 | 0x100)).putShort((short) (0xf000 | info.length)).put(info);
        s.put((byte) 0x0f).putShort((short) (0xe000 | 0x100)).putShort((short) 0xf000);
        s.put((byte) 0x15).putShort((short) (0xe000 | 0x101));
        s.putShort((short) (0xf000 | metadata.length)).put(metadata);
        byte[] section = s.array();
        crc(section);
        return section;
    }

    /** Writes the section's CRC into its last four bytes. */
    private static void crc(byte[] section) {
        int crc = TsMetadataPointer.crc32(ByteBuffer.wrap(section), 0, section.length - 4);
        ByteBuffer.wrap(section, section.length - 4, 4).putInt(crc);
    }
}
