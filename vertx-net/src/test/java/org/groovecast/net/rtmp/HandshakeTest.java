package org.groovecast.net.rtmp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The handshake, checked with the client side of the digest algorithm written out here, and against
 * ffmpeg.
 */
class HandshakeTest {
    private static final int SIZE = Handshake.SIZE;
    private static final byte[] TAIL =
            hex("F0EEC24A8068BEE82E00D0D1029E7E576EEC5D2D29806FAB93B8E636CFEB31AE");
    private static final byte[] PLAYER_KEY =
            concat("Genuine Adobe Flash Player 001".getBytes(StandardCharsets.US_ASCII), TAIL);
    private static final byte[] SERVER_KEY =
            concat(
                    "Genuine Adobe Flash Media Server 001".getBytes(StandardCharsets.US_ASCII),
                    TAIL);
    private static final Path FFMPEG = Path.of("/usr/bin/ffmpeg");

    private final Random random = new Random(20240611);

    @Test
    void answersADigestC1InScheme1WithASignedS1AndS2() {
        answersInScheme(1);
    }

    @Test
    void answersADigestC1InScheme0WithASignedS1AndS2() {
        answersInScheme(0);
    }

    private void answersInScheme(int scheme) {
        for (int round = 0; round < 20; round++) { // different offsets each time
            byte[] c1 = digestC1(scheme);
            ByteBuf in = c0c1(3, c1);
            ByteBuf out = Unpooled.buffer();
            Handshake.answer(in, out);
            assertEquals(0, in.readableBytes(), "C0+C1 consumed");
            assertEquals(1 + 2 * SIZE, out.readableBytes());
            assertEquals(3, out.readByte());
            byte[] s1 = new byte[SIZE];
            byte[] s2 = new byte[SIZE];
            out.readBytes(s1).readBytes(s2);

            assertTrue(
                    s1[4] >= 3, "S1 names a server version ffmpeg checks the digest of: " + s1[4]);
            int serverPos = position(s1, scheme);
            assertArrayEquals(
                    hmacAround(SERVER_KEY, 36, s1, serverPos),
                    Arrays.copyOfRange(s1, serverPos, serverPos + 32),
                    "S1 digest in scheme " + scheme);
            int otherPos = position(s1, 1 - scheme);
            assertFalse(
                    Arrays.equals(
                            hmacAround(SERVER_KEY, 36, s1, otherPos),
                            Arrays.copyOfRange(s1, otherPos, otherPos + 32)),
                    "S1 answers in the client's scheme, not the other");

            int clientPos = position(c1, scheme);
            byte[] s2Key =
                    hmac(
                            SERVER_KEY,
                            SERVER_KEY.length,
                            Arrays.copyOfRange(c1, clientPos, clientPos + 32));
            assertArrayEquals(
                    hmac(s2Key, 32, Arrays.copyOf(s2, SIZE - 32)),
                    Arrays.copyOfRange(s2, SIZE - 32, SIZE),
                    "S2 signature");
        }
    }

    @Test
    void answersASimpleC1ByEchoingIt() {
        byte[] c1 = new byte[SIZE];
        random.nextBytes(c1);
        Arrays.fill(c1, 4, 8, (byte) 0); // OBS: version bytes zero
        ByteBuf out = Unpooled.buffer();
        Handshake.answer(c0c1(3, c1), out);
        assertEquals(1 + 2 * SIZE, out.readableBytes());
        assertEquals(3, out.readByte());
        byte[] s1 = new byte[SIZE];
        byte[] s2 = new byte[SIZE];
        out.readBytes(s1).readBytes(s2);
        assertArrayEquals(
                new byte[4], Arrays.copyOfRange(s1, 4, 8), "simple S1: zeros after the time");
        assertArrayEquals(c1, s2, "S2 echoes C1");
    }

    @Test
    void answersAC1WhoseDigestDoesNotVerifyWithTheSimpleHandshake() {
        byte[] c1 = digestC1(1);
        c1[1000] ^= 1; // covered by the scheme 1 digest (which sits in 12..771), so it no longer
        // verifies
        ByteBuf out = Unpooled.buffer();
        Handshake.answer(c0c1(3, c1), out);
        out.skipBytes(1);
        byte[] s1 = new byte[SIZE];
        byte[] s2 = new byte[SIZE];
        out.readBytes(s1).readBytes(s2);
        assertArrayEquals(new byte[4], Arrays.copyOfRange(s1, 4, 8));
        assertArrayEquals(c1, s2);
    }

    @Test
    void rejectsAnotherVersion() {
        RtmpProtocolException e =
                assertThrows(
                        RtmpProtocolException.class,
                        () -> Handshake.answer(c0c1(6, digestC1(1)), Unpooled.buffer()));
        assertEquals("handshake: version 6, not 3", e.getMessage());
    }

    @Test
    void clientHelloIsASimpleC1AndClientAckEchoesS1() {
        ByteBuf hello = Unpooled.buffer();
        Handshake.clientHello(hello);
        assertEquals(1 + SIZE, hello.readableBytes());
        assertEquals(3, hello.getByte(0));
        assertEquals(0, hello.getInt(5), "simple C1: zeros after the time");
        byte[] c1 = new byte[SIZE];
        hello.getBytes(1, c1);

        ByteBuf reply = Unpooled.buffer();
        Handshake.answer(hello, reply); // our own server takes our client's C1 as simple
        byte[] s1 = new byte[SIZE];
        reply.getBytes(1, s1);
        byte[] s2 = new byte[SIZE];
        reply.getBytes(1 + SIZE, s2);
        assertArrayEquals(c1, s2);

        ByteBuf c2 = Unpooled.buffer();
        Handshake.clientAck(reply, c2);
        assertEquals(0, reply.readableBytes(), "S0+S1+S2 consumed");
        assertEquals(SIZE, c2.readableBytes());
        byte[] echoed = new byte[SIZE];
        c2.readBytes(echoed);
        assertArrayEquals(s1, echoed, "C2 echoes S1");
    }

    @Test
    void clientAckRejectsAnotherVersion() {
        ByteBuf reply = Unpooled.buffer();
        reply.writeByte(6).writeZero(2 * SIZE);
        RtmpProtocolException e =
                assertThrows(
                        RtmpProtocolException.class,
                        () -> Handshake.clientAck(reply, Unpooled.buffer()));
        assertEquals("handshake: version 6, not 3", e.getMessage());
    }

    /**
     * ffmpeg, playing {@code rtmp://}, sends a digest C1 (scheme 1) and drops the connection unless
     * S1's digest and S2's signature verify; when they do, it sends C2 (signed from S1's digest)
     * and then its {@code connect} command.
     */
    @Tag("integration")
    @Test
    @Timeout(10)
    void ffmpegAcceptsTheAnswerAndSendsConnect(@TempDir Path dir) throws Exception {
        assumeTrue(Files.isExecutable(FFMPEG), "needs " + FFMPEG);
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            server.setSoTimeout(8000);
            record Seen(byte[] c1, byte[] s1, byte[] c2, byte[] after) {}
            CompletableFuture<Seen> seen =
                    CompletableFuture.supplyAsync(
                            () -> {
                                try (Socket socket = server.accept()) {
                                    socket.setSoTimeout(6000);
                                    InputStream in = socket.getInputStream();
                                    byte[] c0c1 = in.readNBytes(1 + SIZE);
                                    assertEquals(1 + SIZE, c0c1.length, "C0+C1 from ffmpeg");
                                    ByteBuf out = Unpooled.buffer();
                                    Handshake.answer(Unpooled.wrappedBuffer(c0c1), out);
                                    byte[] s0s1s2 = new byte[out.readableBytes()];
                                    out.readBytes(s0s1s2);
                                    socket.getOutputStream().write(s0s1s2);
                                    byte[] c2 = in.readNBytes(SIZE);
                                    ByteArrayOutputStream after = new ByteArrayOutputStream();
                                    byte[] chunk = new byte[4096];
                                    try {
                                        while (!ascii(after.toByteArray()).contains("connect")) {
                                            int n = in.read(chunk);
                                            if (n < 0) break;
                                            after.write(chunk, 0, n);
                                        }
                                    } catch (SocketTimeoutException e) {
                                        // nothing more came: the assertions below say what was
                                        // missing
                                    }
                                    return new Seen(
                                            Arrays.copyOfRange(c0c1, 1, 1 + SIZE),
                                            Arrays.copyOfRange(s0s1s2, 1, 1 + SIZE),
                                            c2,
                                            after.toByteArray());
                                } catch (IOException e) {
                                    throw new RuntimeException(e);
                                }
                            });

            Path log = dir.resolve("ffmpeg.log");
            Process ffmpeg =
                    new ProcessBuilder(
                                    FFMPEG.toString(),
                                    "-nostdin",
                                    "-v",
                                    "debug",
                                    "-rw_timeout",
                                    "3000000",
                                    "-i",
                                    "rtmp://127.0.0.1:" + server.getLocalPort() + "/live/test",
                                    "-f",
                                    "null",
                                    "-")
                            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                            .redirectError(log.toFile())
                            .start();
            Seen result;
            try {
                result = seen.get(8, TimeUnit.SECONDS);
            } finally {
                ffmpeg.destroyForcibly();
                ffmpeg.waitFor(2, TimeUnit.SECONDS);
            }
            String stderr = Files.readString(log);

            assertNotNull(result.c2());
            assertEquals(SIZE, result.c2().length, "C2 from ffmpeg\n" + stderr);
            assertTrue(
                    ascii(result.after()).contains("connect"),
                    "the first chunk after the handshake is connect\n" + stderr);
            for (String failure :
                    new String[] {
                        "Server response validating failed",
                        "Signature mismatch",
                        "Cannot read RTMP handshake response",
                        "Cannot write RTMP handshake request"
                    }) {
                assertFalse(stderr.contains(failure), failure + "\n" + stderr);
            }
            assertTrue(stderr.contains("Server version 4.5.0.1"), stderr);

            // ffmpeg took the digest path: C1 carried a digest (scheme 1), and C2 is signed from
            // S1's digest
            int clientPos = position(result.c1(), 1);
            assertArrayEquals(
                    hmacAround(PLAYER_KEY, 30, result.c1(), clientPos),
                    Arrays.copyOfRange(result.c1(), clientPos, clientPos + 32),
                    "ffmpeg's C1 digest");
            int serverPos = position(result.s1(), 1);
            byte[] c2Key =
                    hmac(
                            PLAYER_KEY,
                            PLAYER_KEY.length,
                            Arrays.copyOfRange(result.s1(), serverPos, serverPos + 32));
            assertArrayEquals(
                    hmac(c2Key, 32, Arrays.copyOf(result.c2(), SIZE - 32)),
                    Arrays.copyOfRange(result.c2(), SIZE - 32, SIZE),
                    "ffmpeg's C2 signature");
        }
    }

    /**
     * A C1 as Flash Player and ffmpeg build it: time, a non-zero version, random bytes, a digest
     * where {@code scheme} says.
     */
    private byte[] digestC1(int scheme) {
        byte[] c1 = new byte[SIZE];
        random.nextBytes(c1);
        c1[4] = 9;
        c1[5] = 0;
        c1[6] = 124;
        c1[7] = 2;
        int pos = position(c1, scheme);
        System.arraycopy(hmacAround(PLAYER_KEY, 30, c1, pos), 0, c1, pos, 32);
        return c1;
    }

    private static int position(byte[] packet, int scheme) {
        int base = scheme == 1 ? 8 : 772;
        int sum = 0;
        for (int i = 0; i < 4; i++) sum += packet[base + i] & 0xFF;
        return sum % 728 + base + 4;
    }

    private static byte[] hmacAround(byte[] key, int keyLength, byte[] packet, int gap) {
        byte[] rest = new byte[SIZE - 32];
        System.arraycopy(packet, 0, rest, 0, gap);
        System.arraycopy(packet, gap + 32, rest, gap, SIZE - gap - 32);
        return hmac(key, keyLength, rest);
    }

    private static byte[] hmac(byte[] key, int keyLength, byte[] data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, 0, keyLength, "HmacSHA256"));
            return mac.doFinal(data);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static ByteBuf c0c1(int version, byte[] c1) {
        return Unpooled.buffer().writeByte(version).writeBytes(c1);
    }

    private static String ascii(byte[] bytes) {
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] r = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }

    private static byte[] hex(String s) {
        byte[] r = new byte[s.length() / 2];
        for (int i = 0; i < r.length; i++) r[i] = (byte) Integer.parseInt(s, 2 * i, 2 * i + 2, 16);
        return r;
    }
}
