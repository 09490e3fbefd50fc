package org.groovecast.host.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.groovecast.host.Station;
import org.groovecast.host.script.ScriptCompilerTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * https:// with the JDK's trust store: a self-signed certificate is refused with a clear error, and
 * accepted once the JVM's default TLS context trusts it (as a station's operator would add a CA to
 * the JDK's trust store; the test swaps the default context for one trusting its own certificate,
 * then puts the JDK's back).
 */
@Tag("integration")
class HttpsTest {
    private static final char[] PASSWORD = "changeit".toCharArray();

    @TempDir Path dir;
    private HttpsServer server;
    private KeyStore keys;
    private SSLContext jdkDefault;

    @BeforeEach
    void start() throws Exception {
        jdkDefault = SSLContext.getDefault();
        Path store = dir.resolve("server.p12");
        Process keytool =
                new ProcessBuilder(
                                Path.of(System.getProperty("java.home"), "bin", "keytool")
                                        .toString(),
                                "-genkeypair",
                                "-alias",
                                "server",
                                "-keyalg",
                                "EC",
                                "-groupname",
                                "secp256r1",
                                "-validity",
                                "2",
                                "-dname",
                                "CN=127.0.0.1",
                                "-ext",
                                "san=ip:127.0.0.1",
                                "-keystore",
                                store.toString(),
                                "-storetype",
                                "PKCS12",
                                "-storepass",
                                new String(PASSWORD))
                        .redirectErrorStream(true)
                        .start();
        String out = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(
                keytool.waitFor(60, TimeUnit.SECONDS) && keytool.exitValue() == 0,
                "keytool: " + out);
        keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            keys.load(in, PASSWORD);
        }
        KeyManagerFactory km =
                KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        km.init(keys, PASSWORD);
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(km.getKeyManagers(), null, null);
        server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(tls));
        server.createContext("/", ex -> HttpFunctionsTest.reply(ex, 200, "secure"));
        server.start();
    }

    @AfterEach
    void stop() {
        SSLContext.setDefault(jdkDefault);
        server.stop(0);
    }

    List<String> run() {
        String url = "https://127.0.0.1:" + server.getAddress().getPort() + "/";
        Station s =
                Station.load(
                        "s.groovy",
                        """
                try {
                    def r = http.get('%s')
                    log.info("${r.status} ${r.body}")
                } catch (e) {
                    log.info(e.message)
                }
                out.sink(tone())
                """
                                .formatted(url),
                        ScriptCompilerTest.functions(),
                        Map.of());
        return s.scriptLog().recent();
    }

    @Test
    void aCertificateTheTrustStoreDoesNotKnowIsRefusedClearly() {
        List<String> log = run();
        assertEquals(1, log.size());
        assertTrue(
                log.getFirst()
                        .startsWith(
                                "info: s.groovy:2: http.get('https://127.0.0.1:"
                                        + server.getAddress().getPort()
                                        + "/'): TLS handshake with 127.0.0.1:"
                                        + server.getAddress().getPort()
                                        + " failed: its certificate is not trusted by the JDK's trust store"),
                log.getFirst());
    }

    @Test
    void aTrustedCertificateGetsTheAnswer() throws Exception {
        KeyStore trusted = KeyStore.getInstance("PKCS12");
        trusted.load(null, null);
        Certificate cert = keys.getCertificate("server");
        trusted.setCertificateEntry("server", cert);
        TrustManagerFactory tm =
                TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tm.init(trusted);
        SSLContext trusting = SSLContext.getInstance("TLS");
        trusting.init(null, tm.getTrustManagers(), null);
        SSLContext.setDefault(trusting);
        assertEquals(List.of("info: 200 secure"), run());
    }
}
