package org.groovecast.scripts

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
 * Real TLS peers for the TLS specs: icecast2 with an SSL listen socket, stunnel in front of a plain
 * server, and a JDK TLS client that trusts anything (to look at the certificate a server presents).
 */
final class TlsPeers {
    private TlsPeers() {
    }

    /**
     * A private icecast2 with an SSL listen socket on {@code sslPort} (certificate and key from
     * {@code pem}) and a plain one on {@code plainPort} for status checks.
     */
    static final class Icecast2 {
        final int sslPort = Net.freePort()
        final int plainPort = Net.freePort()
        final Path dir = Files.createTempDirectory('groovecast-icecast-tls-')
        private Process process

        Icecast2 start(Path pem) {
            Path log = dir.resolve('log')
            Files.createDirectories(log)
            Path cert = dir.resolve('server.pem')
            Files.copy(pem, cert)
            ['chmod', '-R', '777', dir.toString()].execute().waitFor()
            boolean root = 'id -u'.execute().text.trim() == '0'
            Path conf = dir.resolve('icecast.xml')
            Files.writeString(conf, """\
                <icecast>
                  <limits><sources>4</sources><clients>50</clients></limits>
                  <authentication>
                    <source-password>${Icecast.SOURCE_PASSWORD}</source-password>
                    <admin-user>admin</admin-user><admin-password>adminpw</admin-password>
                  </authentication>
                  <location>test</location><admin>test@localhost</admin>
                  <hostname>127.0.0.1</hostname>
                  <listen-socket><port>${plainPort}</port><bind-address>127.0.0.1</bind-address></listen-socket>
                  <listen-socket><port>${sslPort}</port><bind-address>127.0.0.1</bind-address><ssl>1</ssl></listen-socket>
                  <paths><basedir>/usr/share/icecast2</basedir><logdir>${log}</logdir>
                    <webroot>/usr/share/icecast2/web</webroot><adminroot>/usr/share/icecast2/admin</adminroot>
                    <ssl-certificate>${cert}</ssl-certificate></paths>
                  <logging><errorlog>error.log</errorlog><loglevel>3</loglevel></logging>
                  <security><chroot>0</chroot>${root ? '<changeowner><user>nobody</user><group>nogroup</group></changeowner>' : ''}</security>
                </icecast>""".stripIndent())
            process = new ProcessBuilder('icecast2', '-c', conf.toString()).redirectErrorStream(true)
                    .redirectOutput(dir.resolve('out.txt').toFile()).start()
            assert Net.await(10) { status() != null }: "icecast2 did not start: ${Files.readString(dir.resolve('out.txt'))}"
            this
        }

        /** status-json.xsl from the plain socket, or null while the server does not answer. */
        String status() {
            try {
                def c = new URL("http://127.0.0.1:${plainPort}/status-json.xsl").openConnection()
                c.connectTimeout = 500
                c.readTimeout = 1000
                c.inputStream.text
            } catch (IOException ignored) {
                null
            }
        }

        boolean hasMount(String mount) {
            status()?.contains("${mount}\"")
        }

        String errorLog() {
            Path f = dir.resolve('log/error.log')
            Files.exists(f) ? Files.readString(f) : ''
        }

        void stop() {
            process?.destroy()
            process?.waitFor(10, TimeUnit.SECONDS)
            dir.toFile().deleteDir()
        }
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
