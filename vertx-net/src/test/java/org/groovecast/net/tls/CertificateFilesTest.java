package org.groovecast.net.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PEM certificates and keys as openssl writes them, read and checked the way harbor.tls reads them.
 */
@Tag("integration")
class CertificateFilesTest {
    @TempDir Path dir;

    private void openssl(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("openssl"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals(0, p.waitFor(), out);
    }

    /** A self-signed certificate for {@code key}. */
    private Path certificate(String name, Path key) throws Exception {
        Path cert = dir.resolve(name + ".crt");
        openssl(
                "req",
                "-x509",
                "-key",
                key.toString(),
                "-days",
                "30",
                "-subj",
                "/CN=radio.example",
                "-out",
                cert.toString());
        return cert;
    }

    private Path key(String name, String... genpkey) throws Exception {
        Path key = dir.resolve(name + ".key");
        List<String> args = new ArrayList<>(List.of("genpkey"));
        args.addAll(List.of(genpkey));
        args.addAll(List.of("-out", key.toString()));
        openssl(args.toArray(String[]::new));
        return key;
    }

    @Test
    void readsAnRsaKeyInPkcs8AndInPkcs1() throws Exception {
        Path pkcs8 = key("rsa", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048");
        Path cert = certificate("rsa", pkcs8);
        CertificateFiles f = CertificateFiles.load(cert, pkcs8);
        assertTrue(f.describe().startsWith("CN=radio.example, serial "), f.describe());
        assertTrue(f.describe().contains(", expires "), f.describe());
        assertFalse(f.outOfDate());

        Path pkcs1 = dir.resolve("rsa1.key");
        openssl("rsa", "-in", pkcs8.toString(), "-traditional", "-out", pkcs1.toString());
        assertTrue(Files.readString(pkcs1).contains("BEGIN RSA PRIVATE KEY"));
        assertTrue(CertificateFiles.load(cert, pkcs1).sameAs(f));
    }

    @Test
    void readsCertificateAndKeyFromOneFile() throws Exception {
        Path key = key("ec", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256");
        Path cert = certificate("ec", key);
        Path both = dir.resolve("both.pem");
        Files.writeString(both, Files.readString(cert) + Files.readString(key));
        CertificateFiles f = CertificateFiles.load(both, null);
        assertEquals("EC", f.key().getAlgorithm());
        assertEquals(both, f.keyFile());
        f.serverContext(); // builds: the JDK's TLS takes this chain and key
    }

    @Test
    void refusesAKeyThatIsNotTheCertificates() throws Exception {
        Path rsa = key("a", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048");
        Path otherRsa = key("b", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048");
        Path ec = key("c", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256");
        Path otherEc = key("d", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256");
        Path cert = certificate("a", rsa);
        Path ecCert = certificate("c", ec);
        for (Path wrong : List.of(otherRsa, ec)) {
            var e =
                    assertThrows(
                            IllegalArgumentException.class,
                            () -> CertificateFiles.load(cert, wrong));
            assertTrue(
                    e.getMessage()
                            .startsWith(
                                    "the key in "
                                            + wrong
                                            + " is not the key of the certificate in "
                                            + cert
                                            + " (CN=radio.example, serial "),
                    e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> CertificateFiles.load(ecCert, otherEc));
    }

    @Test
    void saysWhatIsMissingOrUnread() throws Exception {
        Path key = key("k", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048");
        Path cert = certificate("k", key);
        var noKey =
                assertThrows(
                        IllegalArgumentException.class, () -> CertificateFiles.load(cert, null));
        assertEquals(
                cert + " holds no PEM private key (-----BEGIN PRIVATE KEY-----)",
                noKey.getMessage());
        var noCert =
                assertThrows(IllegalArgumentException.class, () -> CertificateFiles.load(key, key));
        assertEquals(
                key + " holds no PEM certificate (-----BEGIN CERTIFICATE-----)",
                noCert.getMessage());
        var missing =
                assertThrows(
                        IllegalArgumentException.class,
                        () -> CertificateFiles.load(dir.resolve("none.pem"), key));
        assertTrue(
                missing.getMessage().startsWith("cannot read " + dir.resolve("none.pem")),
                missing.getMessage());

        Path sec1 = dir.resolve("sec1.key");
        openssl("ecparam", "-genkey", "-name", "prime256v1", "-noout", "-out", sec1.toString());
        var unread =
                assertThrows(
                        IllegalArgumentException.class, () -> CertificateFiles.load(cert, sec1));
        assertTrue(
                unread.getMessage().contains("EC PRIVATE KEY")
                        && unread.getMessage().contains("openssl pkcs8 -topk8 -nocrypt"),
                unread.getMessage());
    }

    @Test
    void anUntrustedSelfSignedCertificateIsNamedInTheFailure() throws Exception {
        Path key = key("s", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048");
        X509Certificate cert = CertificateFiles.load(certificate("s", key), key).leaf();
        ExplainingTrustManager jvm = ExplainingTrustManager.of(null);
        var e =
                assertThrows(
                        CertificateException.class,
                        () -> jvm.checkServerTrusted(new X509Certificate[] {cert}, "RSA"));
        Throwable told = TlsFailure.explain(new javax.net.ssl.SSLHandshakeException("wrapped", e));
        assertTrue(
                told.getMessage()
                        .startsWith(
                                "TLS handshake failed: certificate not trusted (CN=radio.example, expires "),
                told.getMessage());
        assertTrue(told.getMessage().contains("self-signed"), told.getMessage());

        Path trusted = dir.resolve("s.crt");
        ExplainingTrustManager.of(trusted)
                .checkServerTrusted(
                        new X509Certificate[] {cert}, "RSA"); // given as tlsTrust: taken
    }
}
