package org.groovecast.net.rtmp;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.util.concurrent.ThreadLocalRandom;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The RTMP handshake, both sides, as plain functions over buffers: the connection handler collects
 * C0+C1 (1537 bytes) and calls {@link #answer}, our push client sends {@link #clientHello} and
 * answers S0+S1+S2 with {@link #clientAck}.
 *
 * <p>The server speaks two handshakes because clients expect different ones. The RTMP 1.0 spec
 * describes only the simple one: S1 is a time, four zero bytes and random bytes, S2 echoes C1. OBS
 * (librtmp without its FP9 handshake) and other encoders send a C1 whose version bytes are zero and
 * take that. Flash Player 9 and later, and the players that imitate it (ffmpeg's {@code rtmp://}
 * input, librtmp's players), put an HMAC-SHA256 digest into C1 and check that the server answers
 * with a digest of its own: ffmpeg drops the connection with "Server response validating failed"
 * when S1 names a non-zero server version but carries no digest that verifies with the Flash Media
 * Server key, and with "Signature mismatch" when S2 is not signed with a key derived from its own
 * C1 digest. So when C1 carries a valid digest, S1 and S2 are signed; otherwise the simple
 * handshake.
 *
 * <p>The digest may sit in either half of the 1536 bytes, and nothing in C1 says which: in scheme 1
 * the four bytes at 8..11 give its offset in the area from 12, in scheme 0 the bytes at 772..775
 * give it in the area from 776 (the byte sum modulo 728, so the 32 bytes always fit their half).
 * Both are tried, and S1 puts its own digest where the scheme C1 used says. The digest keys are the
 * publicly known "Genuine Adobe Flash Player 001" and "Genuine Adobe Flash Media Server 001"
 * strings followed by 32 fixed bytes: this is a compatibility ritual, not authentication, and the
 * random bytes need no cryptographic strength. RTMPE (C0 = 6, the Diffie-Hellman and RC4
 * "encrypted" variant) is not supported: such a C0 is a protocol error, as is anything but 3.
 */
final class Handshake {
    /** The length of C1, C2, S1 and S2. */
    static final int SIZE = 1536;

    private static final int VERSION = 3;
    private static final int DIGEST = 32;

    /**
     * The server version S1 announces when it carries a digest; ffmpeg checks the digest when its
     * first byte is 3 or more.
     */
    private static final int SERVER_VERSION = 0x04050001;

    /** The 32 bytes both keys end with. */
    private static final byte[] KEY_TAIL = {
        (byte) 0xF0, (byte) 0xEE, (byte) 0xC2, (byte) 0x4A, (byte) 0x80, (byte) 0x68, (byte) 0xBE,
                (byte) 0xE8,
        (byte) 0x2E, (byte) 0x00, (byte) 0xD0, (byte) 0xD1, (byte) 0x02, (byte) 0x9E, (byte) 0x7E,
                (byte) 0x57,
        (byte) 0x6E, (byte) 0xEC, (byte) 0x5D, (byte) 0x2D, (byte) 0x29, (byte) 0x80, (byte) 0x6F,
                (byte) 0xAB,
        (byte) 0x93, (byte) 0xB8, (byte) 0xE6, (byte) 0x36, (byte) 0xCF, (byte) 0xEB, (byte) 0x31,
                (byte) 0xAE,
    };

    private static final String PLAYER_NAME = "Genuine Adobe Flash Player 001"; // 30 bytes
    private static final String SERVER_NAME = "Genuine Adobe Flash Media Server 001"; // 36 bytes
    private static final byte[] SERVER_KEY = key(SERVER_NAME);

    /** Signs C1: the player key's text part only. */
    private static final SecretKeySpec CLIENT_DIGEST_KEY =
            new SecretKeySpec(key(PLAYER_NAME), 0, PLAYER_NAME.length(), "HmacSHA256");

    /** Signs S1: the server key's text part only. */
    private static final SecretKeySpec SERVER_DIGEST_KEY =
            new SecretKeySpec(SERVER_KEY, 0, SERVER_NAME.length(), "HmacSHA256");

    /** Derives the key that signs S2 from C1's digest: the whole server key. */
    private static final SecretKeySpec SERVER_FULL_KEY =
            new SecretKeySpec(SERVER_KEY, "HmacSHA256");

    private static final ThreadLocal<Mac> MAC =
            ThreadLocal.withInitial(
                    () -> {
                        try {
                            return Mac.getInstance("HmacSHA256");
                        } catch (GeneralSecurityException e) {
                            throw new IllegalStateException(
                                    "HmacSHA256 is missing from this JDK", e);
                        }
                    });

    /** The epoch of the 4-byte times S1 and C1 carry: milliseconds since this class loaded. */
    private static final long EPOCH = System.nanoTime();

    private Handshake() {}

    /**
     * Reads C0+C1 ({@code 1 + SIZE} bytes) from {@code c0c1} and writes S0+S1+S2 ({@code 1 + 2 *
     * SIZE} bytes) to {@code out}: signed in C1's scheme when C1 carries a valid Flash Player
     * digest, the simple handshake otherwise.
     *
     * @throws RtmpProtocolException when C0 is not 3
     */
    static void answer(ByteBuf c0c1, ByteBuf out) {
        if (c0c1.readableBytes() < 1 + SIZE) {
            throw new IllegalArgumentException(
                    "C0+C1 needs " + (1 + SIZE) + " bytes, got " + c0c1.readableBytes());
        }
        checkVersion(c0c1.readUnsignedByte());
        byte[] c1 = new byte[SIZE];
        c0c1.readBytes(c1);

        Mac mac = MAC.get();
        int clientDigest = -1;
        int scheme = -1;
        if (c1[4] != 0
                || c1[5] != 0
                || c1[6] != 0
                || c1[7] != 0) { // a zero version: the simple handshake, don't bother
            for (int s = 1; s >= 0 && clientDigest < 0; s--) {
                int pos = digestPosition(c1, s);
                if (verifies(mac, CLIENT_DIGEST_KEY, c1, pos)) {
                    clientDigest = pos;
                    scheme = s;
                }
            }
        }

        out.writeByte(VERSION);
        byte[] s1 = new byte[SIZE];
        ThreadLocalRandom random = ThreadLocalRandom.current();
        random.nextBytes(s1);
        putInt(s1, 0, time());
        if (clientDigest < 0) {
            putInt(s1, 4, 0);
            out.writeBytes(s1);
            out.writeBytes(c1); // S2 echoes C1
            return;
        }
        putInt(s1, 4, SERVER_VERSION);
        imprint(mac, SERVER_DIGEST_KEY, s1, digestPosition(s1, scheme));
        out.writeBytes(s1);

        // S2: random bytes, the last 32 signed with a key derived from C1's digest
        init(mac, SERVER_FULL_KEY);
        mac.update(c1, clientDigest, DIGEST);
        SecretKeySpec s2Key = new SecretKeySpec(mac.doFinal(), "HmacSHA256");
        byte[] s2 = s1; // S1 is in out already: its array becomes S2
        random.nextBytes(s2);
        init(mac, s2Key);
        mac.update(s2, 0, SIZE - DIGEST);
        finish(mac, s2, SIZE - DIGEST);
        out.writeBytes(s2);
    }

    /** Writes C0 and a simple C1 (time, four zero bytes, random bytes): {@code 1 + SIZE} bytes. */
    static void clientHello(ByteBuf out) {
        byte[] c1 = new byte[SIZE];
        ThreadLocalRandom.current().nextBytes(c1);
        putInt(c1, 0, time());
        putInt(c1, 4, 0);
        out.writeByte(VERSION);
        out.writeBytes(c1);
    }

    /**
     * Reads S0+S1+S2 ({@code 1 + 2 * SIZE} bytes) from {@code s0s1s2} and writes C2, the echo of
     * S1, to {@code out}. S2 is not checked: servers that sign it do not echo our C1.
     *
     * @throws RtmpProtocolException when S0 is not 3
     */
    static void clientAck(ByteBuf s0s1s2, ByteBuf out) {
        if (s0s1s2.readableBytes() < 1 + 2 * SIZE) {
            throw new IllegalArgumentException(
                    "S0+S1+S2 needs " + (1 + 2 * SIZE) + " bytes, got " + s0s1s2.readableBytes());
        }
        checkVersion(s0s1s2.readUnsignedByte());
        out.writeBytes(s0s1s2, SIZE);
        s0s1s2.skipBytes(SIZE);
    }

    private static void checkVersion(int version) {
        if (version != VERSION)
            throw new RtmpProtocolException("handshake: version " + version + ", not 3");
    }

    /**
     * Where the digest of a C1 or S1 sits in {@code scheme} 1 (offset bytes 8..11, area from 12) or
     * 0 (offset bytes 772..775, area from 776).
     */
    private static int digestPosition(byte[] packet, int scheme) {
        int at = scheme == 1 ? 8 : 772;
        int sum =
                (packet[at] & 0xFF)
                        + (packet[at + 1] & 0xFF)
                        + (packet[at + 2] & 0xFF)
                        + (packet[at + 3] & 0xFF);
        return sum % 728 + at + 4;
    }

    /**
     * Whether the 32 bytes at {@code pos} are the HMAC of the rest of {@code packet} under {@code
     * key}.
     */
    private static boolean verifies(Mac mac, SecretKeySpec key, byte[] packet, int pos) {
        digestAround(mac, key, packet, pos);
        byte[] expected = mac.doFinal();
        int diff = 0;
        for (int i = 0; i < DIGEST; i++) diff |= expected[i] ^ packet[pos + i];
        return diff == 0;
    }

    /** Puts at {@code pos} the HMAC of the rest of {@code packet} under {@code key}. */
    private static void imprint(Mac mac, SecretKeySpec key, byte[] packet, int pos) {
        digestAround(mac, key, packet, pos);
        finish(mac, packet, pos);
    }

    /**
     * Feeds {@code mac}, keyed with {@code key}, all of {@code packet} but the 32 bytes at {@code
     * gap}.
     */
    private static void digestAround(Mac mac, SecretKeySpec key, byte[] packet, int gap) {
        init(mac, key);
        mac.update(packet, 0, gap);
        mac.update(packet, gap + DIGEST, SIZE - gap - DIGEST);
    }

    private static void init(Mac mac, SecretKeySpec key) {
        try {
            mac.init(key);
        } catch (InvalidKeyException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void finish(Mac mac, byte[] dst, int dstPos) {
        try {
            mac.doFinal(dst, dstPos);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static int time() {
        return (int) ((System.nanoTime() - EPOCH) / 1_000_000);
    }

    private static void putInt(byte[] b, int at, int value) {
        b[at] = (byte) (value >>> 24);
        b[at + 1] = (byte) (value >>> 16);
        b[at + 2] = (byte) (value >>> 8);
        b[at + 3] = (byte) value;
    }

    private static byte[] key(String name) {
        byte[] text = name.getBytes(StandardCharsets.US_ASCII);
        byte[] key = new byte[text.length + KEY_TAIL.length];
        System.arraycopy(text, 0, key, 0, text.length);
        System.arraycopy(KEY_TAIL, 0, key, text.length, KEY_TAIL.length);
        return key;
    }
}
