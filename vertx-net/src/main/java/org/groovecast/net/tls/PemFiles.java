package org.groovecast.net.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Certificates and private keys in PEM files, as openssl, certbot and Icecast's {@code
 * ssl-certificate} (certificate and key in one file) write them. Keys in PKCS#8 ({@code BEGIN
 * PRIVATE KEY}) and RSA's PKCS#1 ({@code BEGIN RSA PRIVATE KEY}) are read; anything else is refused
 * with the openssl command that converts it.
 */
final class PemFiles {
    private static final Pattern BLOCK =
            Pattern.compile(
                    "-----BEGIN ([A-Z0-9 ]+)-----\\s*([A-Za-z0-9+/=\\s]*?)-----END \\1-----");
    private static final String[] KEY_ALGORITHMS = {
        "RSA", "EC", "Ed25519", "Ed448", "RSASSA-PSS", "DSA"
    };

    /** AlgorithmIdentifier of rsaEncryption (1.2.840.113549.1.1.1) with NULL parameters, DER. */
    private static final byte[] RSA_ALGORITHM = {
        0x30,
        0x0d,
        0x06,
        0x09,
        0x2a,
        (byte) 0x86,
        0x48,
        (byte) 0x86,
        (byte) 0xf7,
        0x0d,
        0x01,
        0x01,
        0x01,
        0x05,
        0x00
    };

    private PemFiles() {}

    record Block(String type, byte[] der) {}

    static List<Block> blocks(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage());
        }
        List<Block> out = new ArrayList<>();
        Matcher m = BLOCK.matcher(text);
        while (m.find()) {
            try {
                out.add(new Block(m.group(1), Base64.getMimeDecoder().decode(m.group(2))));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        file + ": a " + m.group(1) + " block is not valid base64");
            }
        }
        return out;
    }

    /**
     * The certificates of {@code file}, in order (the server's first, then its chain); throws when
     * there is none.
     */
    static List<X509Certificate> certificates(Path file) {
        List<X509Certificate> certs = new ArrayList<>();
        try {
            CertificateFactory cf = CertificateFactory.getInstance("X.509");
            for (Block b : blocks(file)) {
                if (b.type().equals("CERTIFICATE") || b.type().equals("TRUSTED CERTIFICATE")) {
                    certs.add(
                            (X509Certificate)
                                    cf.generateCertificate(new ByteArrayInputStream(b.der())));
                }
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(
                    file + ": not a valid certificate: " + e.getMessage());
        }
        if (certs.isEmpty())
            throw new IllegalArgumentException(
                    file + " holds no PEM certificate (-----BEGIN CERTIFICATE-----)");
        return certs;
    }

    /**
     * The private key of {@code file}; throws naming the file when it has none that can be read.
     */
    static PrivateKey privateKey(Path file) {
        for (Block b : blocks(file)) {
            switch (b.type()) {
                case "PRIVATE KEY" -> {
                    return pkcs8(file, b.der());
                }
                case "RSA PRIVATE KEY" -> {
                    return pkcs8(file, rsaPkcs8(b.der()));
                }
                case "ENCRYPTED PRIVATE KEY", "EC PRIVATE KEY", "DSA PRIVATE KEY" ->
                        throw new IllegalArgumentException(
                                file
                                        + " holds a key as "
                                        + b.type()
                                        + ", which is not read; write it unencrypted as PKCS#8 with "
                                        + "openssl pkcs8 -topk8 -nocrypt -in "
                                        + file
                                        + " -out key.pem");
                default -> {
                    // certificates and parameters beside the key
                }
            }
        }
        throw new IllegalArgumentException(
                file + " holds no PEM private key (-----BEGIN PRIVATE KEY-----)");
    }

    private static PrivateKey pkcs8(Path file, byte[] der) {
        PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(der);
        for (String algorithm : KEY_ALGORITHMS) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(spec);
            } catch (GeneralSecurityException e) {
                // another algorithm
            }
        }
        throw new IllegalArgumentException(
                file + ": the private key is not an RSA, EC, EdDSA or DSA key this JVM reads");
    }

    /**
     * PKCS#1 RSAPrivateKey wrapped as PKCS#8 PrivateKeyInfo: version 0, rsaEncryption, the key as
     * an octet string.
     */
    private static byte[] rsaPkcs8(byte[] pkcs1) {
        byte[] octets = der(0x04, pkcs1);
        byte[] body = new byte[3 + RSA_ALGORITHM.length + octets.length];
        body[0] = 0x02;
        body[1] = 0x01;
        body[2] = 0x00;
        System.arraycopy(RSA_ALGORITHM, 0, body, 3, RSA_ALGORITHM.length);
        System.arraycopy(octets, 0, body, 3 + RSA_ALGORITHM.length, octets.length);
        return der(0x30, body);
    }

    private static byte[] der(int tag, byte[] content) {
        int n = content.length;
        byte[] length =
                n < 0x80
                        ? new byte[] {(byte) n}
                        : n < 0x100
                                ? new byte[] {(byte) 0x81, (byte) n}
                                : n < 0x10000
                                        ? new byte[] {(byte) 0x82, (byte) (n >> 8), (byte) n}
                                        : new byte[] {
                                            (byte) 0x83, (byte) (n >> 16), (byte) (n >> 8), (byte) n
                                        };
        byte[] out = new byte[1 + length.length + n];
        out[0] = (byte) tag;
        System.arraycopy(length, 0, out, 1, length.length);
        System.arraycopy(content, 0, out, 1 + length.length, n);
        return out;
    }
}
