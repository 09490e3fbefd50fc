package org.groovecast.scripts.support

import java.nio.file.Files
import java.nio.file.Path
import java.security.SecureRandom
import java.security.cert.X509Certificate
import java.util.concurrent.TimeUnit
import javax.net.ssl.SSLContext
import javax.net.ssl.SSLSocket
import javax.net.ssl.TrustManager
import javax.net.ssl.X509TrustManager

/**
 * Real TLS peers for the TLS specs (icecast2 with an SSL listen socket is Icecast.withSsl): stunnel in front of a plain
 * server, and a JDK TLS client that trusts anything (to look at the certificate a server presents).
 */
final class TlsPeers {
    private TlsPeers() {
    }

    /** stunnel on {@code port}: TLS with the given certificate, relayed in plain TCP to {@code target}. */
    static final class Stunnel {
        final int port = Net.freePort()
        final Path dir = Files.createTempDirectory('groovecast-stunnel-')
        private Process process

        Stunnel start(SelfSigned cert, int target) {
            Path conf = dir.resolve('stunnel.conf')
            Files.writeString(conf, """\
                foreground = yes
                pid =
                output = ${dir.resolve('stunnel.log')}
                debug = notice
                [rtmps]
                accept = 127.0.0.1:${port}
                connect = 127.0.0.1:${target}
                cert = ${cert.cert}
                key = ${cert.key}
                """.stripIndent())
            process = new ProcessBuilder('stunnel4', conf.toString()).redirectErrorStream(true)
                    .redirectOutput(dir.resolve('out.txt').toFile()).start()
            assert Net.await(10) {
                try {
                    new Socket('127.0.0.1', port).close()
                    true
                } catch (IOException ignored) {
                    false
                }
            }: "stunnel did not start: ${Files.readString(dir.resolve('out.txt'))}"
            this
        }

        String log() {
            Path f = dir.resolve('stunnel.log')
            (Files.exists(f) ? Files.readString(f) : '') + Files.readString(dir.resolve('out.txt'))
        }

        void stop() {
            process?.destroy()
            process?.waitFor(10, TimeUnit.SECONDS)
            dir.toFile().deleteDir()
        }
    }

    /** A TLS connection to 127.0.0.1:{@code port} that takes any certificate, handshaken. */
    static SSLSocket connect(int port) {
        TrustManager any = new X509TrustManager() {
            void checkClientTrusted(X509Certificate[] chain, String authType) {}
            void checkServerTrusted(X509Certificate[] chain, String authType) {}
            X509Certificate[] getAcceptedIssuers() { new X509Certificate[0] }
        }
        SSLContext c = SSLContext.getInstance('TLS')
        c.init(null, [any] as TrustManager[], new SecureRandom())
        SSLSocket s = (SSLSocket) c.socketFactory.createSocket('127.0.0.1', port)
        s.soTimeout = 5000
        s.startHandshake()
        s
    }

    /** The serial of the certificate a fresh handshake with 127.0.0.1:{@code port} presents. */
    static BigInteger presentedSerial(int port) {
        connect(port).withCloseable { s -> (s.session.peerCertificates[0] as X509Certificate).serialNumber }
    }
}
