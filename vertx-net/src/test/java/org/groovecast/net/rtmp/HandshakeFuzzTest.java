package org.groovecast.net.rtmp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.util.Arrays;
import org.junit.jupiter.api.Timeout;

/**
 * The handshake on any first bytes, both sides: {@link Handshake#answer} with C0+C1 (the input,
 * zero-padded to its 1537 bytes, as the connection waits for them) and {@link Handshake#clientAck}
 * with S0+S1+S2 (the input padded to 3073). Either the protocol error, for a version other than 3
 * only, or exactly S0+S1+S2 / C2: S0 is 3, S1 simple (zero version, S2 the echo of C1) or signed
 * (the server version 4.5.0.1, only for a C1 that has a version); C2 the echo of S1. Seeds:
 * ffmpeg's digest C1s (publishing, playing), OBS's simple one, an RTMPE C0.
 */
class HandshakeFuzzTest {
    private static final int SIZE = Handshake.SIZE;

    @FuzzTest(maxDuration = "10m")
    @Timeout(5)
    void answer(byte[] first) {
        byte[] c0c1 = Arrays.copyOf(first, Math.max(first.length, 1 + SIZE));
        boolean version3 = c0c1[0] == 3;
        ByteBuf out = Unpooled.buffer(1 + 2 * SIZE);
        try {
            Handshake.answer(Unpooled.wrappedBuffer(c0c1), out);
            assertTrue(version3, "answered version " + c0c1[0]);
            checkAnswer(Arrays.copyOfRange(c0c1, 1, 1 + SIZE), out);
        } catch (RtmpProtocolException e) {
            assertTrue(!version3, "refused version 3: " + e.getMessage());
        }

        byte[] s0s1s2 = Arrays.copyOf(first, Math.max(first.length, 1 + 2 * SIZE));
        ByteBuf c2 = Unpooled.buffer(SIZE);
        try {
            Handshake.clientAck(Unpooled.wrappedBuffer(s0s1s2), c2);
            assertTrue(version3, "acknowledged version " + s0s1s2[0]);
            assertArrayEquals(
                    Arrays.copyOfRange(s0s1s2, 1, 1 + SIZE),
                    ByteBufUtil.getBytes(c2),
                    "C2 echoes S1");
        } catch (RtmpProtocolException e) {
            assertTrue(!version3, "refused version 3: " + e.getMessage());
        }
    }

    private static void checkAnswer(byte[] c1, ByteBuf out) {
        assertEquals(1 + 2 * SIZE, out.readableBytes(), "S0+S1+S2");
        assertEquals(3, out.readByte(), "S0");
        byte[] s1 = new byte[SIZE];
        byte[] s2 = new byte[SIZE];
        out.readBytes(s1).readBytes(s2);
        byte[] version = Arrays.copyOfRange(s1, 4, 8);
        if (Arrays.equals(version, new byte[4])) {
            assertArrayEquals(c1, s2, "a simple S1 comes with S2 echoing C1");
        } else {
            assertArrayEquals(
                    new byte[] {4, 5, 0, 1}, version, "a signed S1 names the server version");
            assertTrue(
                    c1[4] != 0 || c1[5] != 0 || c1[6] != 0 || c1[7] != 0,
                    "signed only for a C1 with a version");
        }
    }
}
