package org.groovecast.net.tls;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.math.BigInteger;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.security.interfaces.RSAKey;
import java.util.List;
import javax.net.ssl.SSLException;

/**
 * A server's certificate chain and private key, read from PEM files and checked: the key must be
 * the certificate's (else every handshake would fail, and clients say only "decrypt error"). Read
 * once per (re)load of the script, so that replacing the files and reloading (SIGHUP) puts the new
 * certificate on air for the next handshake; connections made before keep theirs.
 *
 * @param certificate the file of the certificate (and its chain; it may hold the key too)
 * @param keyFile the file of the private key (the certificate's file when it holds both)
 */
public record CertificateFiles(
        Path certificate, Path keyFile, List<X509Certificate> chain, PrivateKey key) {

    /**
     * Reads and checks the files; throws {@link IllegalArgumentException} with what is wrong and
     * where: an unreadable file, no certificate, no key, or a key that is not the certificate's.
     *
     * @param keyFile null when {@code certificate} holds the key too
     */
    public static CertificateFiles load(Path certificate, Path keyFile) {
        Path keyPath = keyFile == null ? certificate : keyFile;
        List<X509Certificate> chain = PemFiles.certificates(certificate);
        PrivateKey key = PemFiles.privateKey(keyPath);
        if (!matches(key, chain.getFirst().getPublicKey())) {
            throw new IllegalArgumentException(
                    "the key in "
                            + keyPath
                            + " is not the key of the certificate in "
                            + certificate
                            + " ("
                            + Certificates.describe(chain.getFirst())
                            + "); give the key the certificate was made for");
        }
        return new CertificateFiles(certificate, keyPath, List.copyOf(chain), key);
    }

    /** The server's own certificate, the first of the chain. */
    public X509Certificate leaf() {
        return chain.getFirst();
    }

    public boolean outOfDate() {
        return Certificates.outOfDate(leaf());
    }

    public String describe() {
        return Certificates.describe(leaf());
    }

    /** Same certificate and key, whatever the files are called. */
    public boolean sameAs(CertificateFiles other) {
        return other != null && leaf().equals(other.leaf()) && key.equals(other.key);
    }

    /** A server context presenting this chain, on the JDK's TLS (no native library to ship). */
    SslContext serverContext() {
        try {
            return SslContextBuilder.forServer(key, chain.toArray(X509Certificate[]::new))
                    .sslProvider(SslProvider.JDK)
                    .build();
        } catch (SSLException e) {
            throw new IllegalArgumentException(
                    "the certificate in " + certificate + " cannot serve TLS: " + e.getMessage(),
                    e);
        }
    }

    /**
     * Whether {@code key} is the private half of {@code pub}: RSA moduli compared, other kinds by
     * signing a message with the key and checking it with the certificate's public key.
     */
    static boolean matches(PrivateKey key, PublicKey pub) {
        if (key instanceof RSAKey k && pub instanceof RSAKey p)
            return k.getModulus().equals(p.getModulus());
        if (!key.getAlgorithm().equals(pub.getAlgorithm())) return false;
        String algorithm =
                switch (key.getAlgorithm()) {
                    case "EC" -> "SHA256withECDSA";
                    case "DSA" -> "SHA256withDSA";
                    default -> key.getAlgorithm(); // Ed25519, Ed448
                };
        try {
            byte[] message = new BigInteger(64, new java.security.SecureRandom()).toByteArray();
            Signature s = Signature.getInstance(algorithm);
            s.initSign(key);
            s.update(message);
            byte[] signature = s.sign();
            Signature v = Signature.getInstance(algorithm);
            v.initVerify(pub);
            v.update(message);
            return v.verify(signature);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }
}
