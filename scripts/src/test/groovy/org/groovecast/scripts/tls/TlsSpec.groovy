package org.groovecast.scripts.tls

import ch.qos.logback.classic.Level
import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.StandardCopyOption
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicLong
import javax.net.ssl.SSLSocket
import org.groovecast.host.Station
import org.groovecast.host.StationReloader
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.Icecast
import org.groovecast.scripts.support.LogCapture
import org.groovecast.scripts.support.Media
import org.groovecast.scripts.support.Net
import org.groovecast.scripts.support.NginxRtmp
import org.groovecast.scripts.support.SelfSigned
import org.groovecast.scripts.support.TlsPeers
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/**
 * TLS with real peers: output.icecast to icecast2's SSL listen socket, output.rtmp to rtmps://
 * through stunnel in front of nginx-rtmp, and the harbor serving HTTPS (listeners, a DJ, the
 * status API, the control API, metrics) with its certificate replaced by a reload.
 */
@Tag("integration")
class TlsSpec extends Specification {
    @TempDir
    Path dir

    Station station
    StationReloader reloader
    Icecast icecast
    TlsPeers.Stunnel stunnel
    NginxRtmp nginx
    List<Process> processes = []
    List<Closeable> closeables = []

    def cleanup() {
        processes.each { it.destroyForcibly(); it.waitFor(5, TimeUnit.SECONDS) }
        closeables.each { it.close() }
        station?.stop()
        reloader?.stop()
        icecast?.kill()
        stunnel?.stop()
        nginx?.stop()
    }

    /** What ffmpeg hears of {@code url} for 2 s: the dominant frequency. */
    double heard(String url, List<String> input = []) {
        Media.heard(dir.resolve("heard-${System.nanoTime()}.wav"), url, input)
    }

    Station run(String text) {
        station = Engine.load('tls.groovy', text.stripIndent(), [:])
        station.start(null)
        station
    }

    LogCapture capture(String logger, Level level = null) {
        def c = new LogCapture(logger, level)
        closeables << c
        c
    }

    def "output.icecast with tls: true streams to icecast2's SSL listen socket, titles included, and a listener hears it over https"() {
        given:
        def cert = new SelfSigned(dir, 'icecast')
        icecast = new Icecast().withSsl(cert.combined).start()

        when:
        run("""
            def s = sine(440, amplitude: 0.3)
            thread.run(delay: 0.5) { -> s.insertMetadata(title: 'Secure Title', artist: 'Groovecast') }
            output.icecast(mp3(bitrate: 128), s, host: '127.0.0.1', port: ${icecast.sslPort},
                    password: '${Icecast.SOURCE_PASSWORD}', mount: 'radio', tls: true, tlsTrust: '${cert.cert}')
        """)

        then: 'the mount is up, its title sent over https to /admin/metadata'
        Net.await(15) { icecast.hasMount('/radio') }
        Net.await(5) { icecast.status().contains('"title":"Groovecast - Secure Title"') }

        and: 'a listener on the SSL socket, checking the certificate, hears the tone'
        Math.abs(heard("https://127.0.0.1:${icecast.sslPort}/radio", ['-tls_verify', '1', '-ca_file', cert.cert.toString()]) - 440) < 3
    }

    def "an untrusted certificate gives one clear line per attempt and is retried, the station on air; tlsVerify: false takes it"() {
        given:
        def cert = new SelfSigned(dir, 'icecast')
        icecast = new Icecast().withSsl(cert.combined).start()
        def log = capture('org.groovecast.net.output.Reconnection')

        when: 'the self-signed certificate is not in the trust store'
        run("""
            output.icecast(mp3(bitrate: 128), sine(440), host: '127.0.0.1', port: ${icecast.sslPort},
                    password: '${Icecast.SOURCE_PASSWORD}', mount: 'radio', tls: true)
        """)
        String prefix = "output.icecast icecast+tls://127.0.0.1:${icecast.sslPort}/radio: TLS handshake failed: " +
                'certificate not trusted (CN=127.0.0.1, expires '
        boolean retried = Net.await(15) { log.messages().count { it.startsWith(prefix) } >= 3 }

        then: 'the failure names the certificate, is retried with backoff, and the clock goes on'
        retried
        !icecast.hasMount('/radio')
        log.messages().every { it.startsWith(prefix) && it.contains('self-signed') }
        station.clocks().every { it.getLag() < 0.5 && it.getTicks() > 100 }

        when: 'the certificate is trusted but the output connects by a name the certificate does not give (only IP:127.0.0.1)'
        station.stop()
        run("""
            output.icecast(mp3(bitrate: 128), sine(440), host: 'localhost', port: ${icecast.sslPort},
                    password: '${Icecast.SOURCE_PASSWORD}', mount: 'radio', tls: true, tlsTrust: '${cert.cert}')
        """)

        then: 'the host name is checked too'
        Net.await(10) { log.messages().any { it.startsWith("output.icecast icecast+tls://localhost:${icecast.sslPort}/radio: " +
                'TLS handshake failed: certificate not valid for localhost (CN=127.0.0.1, expires ') } }
        !icecast.hasMount('/radio')

        when: 'another station takes any certificate'
        station.stop()
        run("""
            output.icecast(mp3(bitrate: 128), sine(440), host: '127.0.0.1', port: ${icecast.sslPort},
                    password: '${Icecast.SOURCE_PASSWORD}', mount: 'radio', tls: true, tlsVerify: false)
        """)

        then:
        Net.await(15) { icecast.hasMount('/radio') }
    }

    def "output.rtmp to rtmps:// through stunnel in front of nginx-rtmp: a player reading nginx hears it; an untrusted certificate is logged"() {
        given:
        def cert = new SelfSigned(dir, 'stunnel')
        nginx = new NginxRtmp().start()
        stunnel = new TlsPeers.Stunnel().start(cert, nginx.port)
        def retries = capture('org.groovecast.net.output.Reconnection')
        def pushes = capture('org.groovecast.net.rtmp.RtmpPushClient', Level.INFO)
        String url = "rtmps://127.0.0.1:${stunnel.port}/live/secure"

        when: 'first without trusting the certificate'
        run("""
            output.rtmp('${url}', ffmpeg(format: 'flv', audio: [codec: 'aac', b: '128k']), sine(660, amplitude: 0.3))
        """)

        then:
        Net.await(10) { retries.messages().any { it.startsWith("output.rtmp ${url}: TLS handshake failed: certificate not trusted (CN=127.0.0.1") } }

        when: 'then trusting it'
        station.stop()
        run("""
            output.rtmp('${url}', ffmpeg(format: 'flv', audio: [codec: 'aac', b: '128k']), sine(660, amplitude: 0.3),
                    tlsTrust: '${cert.cert}')
        """)

        then: 'the push goes through the TLS terminator and ffmpeg reads it back from nginx in plain RTMP'
        Net.await(15) { pushes.messages().contains("output.rtmp: publishing to ${url}".toString()) }
        Math.abs(heard("rtmp://127.0.0.1:${nginx.port}/live/secure") - 660) < 3
    }

    /** A listener over TLS that keeps reading the mount in the background, counting bytes. */
    static final class TlsListener implements Closeable {
        final AtomicLong bytes = new AtomicLong()
        final SSLSocket socket
        volatile Throwable failure
        final Thread thread

        TlsListener(int port) {
            socket = TlsPeers.connect(port)
            socket.outputStream.write("GET /radio HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes('ISO-8859-1'))
            socket.outputStream.flush()
            thread = Thread.start {
                byte[] b = new byte[16384]
                try {
                    int n
                    while ((n = socket.inputStream.read(b)) > 0) bytes.addAndGet(n)
                } catch (Throwable e) {
                    failure = e
                }
            }
        }

        /** Whether more bytes come within {@code ms}. */
        boolean receives(long ms = 1500) {
            long before = bytes.get()
            Thread.sleep(ms)
            failure == null && bytes.get() > before + 1000
        }

        BigInteger serial() {
            (socket.session.peerCertificates[0] as java.security.cert.X509Certificate).serialNumber
        }

        @Override
        void close() {
            socket.close()
        }
    }

    String curl(String path, SelfSigned trusted, List<String> more = []) {
        def p = (['curl', '-s', '-S', '--max-time', '5', '--cacert', trusted.cert.toString()] + more +
                ["https://127.0.0.1:${port}${path}".toString()]).execute()
        String out = p.inputStream.text
        assert p.waitFor() == 0: "curl ${path}: ${p.errorStream.text}"
        out
    }

    int port = Net.freePort()

    def "the harbor serves listeners, a DJ, the status and control APIs and metrics over HTTPS; a reload presents the new certificate without dropping a listener, and a mismatched key keeps the old one"() {
        given: 'certificate files at fixed paths, as certbot renews them'
        def first = new SelfSigned(dir.resolve('a'), 'a')
        def second = new SelfSigned(dir.resolve('b'), 'b')
        def third = new SelfSigned(dir.resolve('c'), 'c')
        def expired = new SelfSigned(dir.resolve('x'), 'x', true)
        Path files = dir.resolve('files')
        Files.createDirectories(files)
        byte[] page = new byte[300_000]
        new Random(7).nextBytes(page)
        Files.write(files.resolve('big.bin'), page)
        Path certFile = dir.resolve('live/fullchain.pem')
        Path keyFile = dir.resolve('live/privkey.pem')
        Files.createDirectories(certFile.parent)
        Files.copy(first.cert, certFile)
        Files.copy(first.key, keyFile)
        Path script = dir.resolve('station.groovy')
        Files.writeString(script, """
            harbor.tls(port: ${port}, certificate: '${certFile}', key: '${keyFile}')
            def live = input.harbor('live', port: ${port}, password: 'secret', buffer: 0.5)
            def s = fallback(trackSensitive: false, live, sine(440, amplitude: 0.3))
            output.harbor(mp3(bitrate: 128), s, mount: 'radio', port: ${port})
            metrics.expose(port: ${port})
            status.page(port: ${port})
            server.http(port: ${port}, token: 'tok')
            harbor.http.static('/files', '${files}', port: ${port})
        """.stripIndent())
        def failures = capture('org.groovecast.host.StationReloader')
        def warnings = capture('org.groovecast.net.TlsOperators')
        reloader = new StationReloader(script, Engine.plugins().functions(), [:])
        reloader.start()

        expect: 'a listener checking the certificate hears the mount; status, control and metrics answer over https'
        Math.abs(heard("https://127.0.0.1:${port}/radio", ['-tls_verify', '1', '-ca_file', first.cert.toString()]) - 440) < 3
        curl('/api/nowplaying', first).contains('"mount"') || curl('/api/nowplaying', first).startsWith('{')
        curl('/metrics', first).contains('groovecast_')
        curl('/control/version', first, ['-H', 'Authorization: Bearer tok']).contains('Groovecast')
        TlsPeers.presentedSerial(port) == first.serial

        and: 'its playlist names the https URL; a plain http request gets a 400 that says to use https'
        curl('/radio.m3u', first).contains("https://127.0.0.1:${port}/radio")
        String plain = Net.raw(port, "GET /radio HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        Net.status(plain) == 400
        plain.contains('This port speaks HTTPS')

        and: 'a file the harbor sends with sendfile in plain HTTP arrives whole through TLS'
        Path got = dir.resolve('got.bin')
        curl('/files/big.bin', first, ['-o', got.toString()]) != null
        Files.readAllBytes(got) == page

        when: 'a DJ connects over TLS (ffmpeg -tls 1)'
        Process dj = new ProcessBuilder('ffmpeg', '-nostdin', '-v', 'error', '-re', '-f', 'lavfi', '-i',
                'sine=frequency=880:sample_rate=44100:duration=30', '-ac', '2', '-c:a', 'libmp3lame', '-b:a', '128k',
                '-f', 'mp3', '-content_type', 'audio/mpeg', '-tls', '1',
                "icecast://source:secret@127.0.0.1:${port}/live".toString()).redirectErrorStream(true).start()
        processes << dj

        then: 'the station plays the DJ'
        Net.await(15) { Math.abs(heard("https://127.0.0.1:${port}/radio", ['-tls_verify', '1', '-ca_file', first.cert.toString()]) - 880) < 3 }

        when: 'a listener is connected, the files are replaced and the station reloaded (what SIGHUP does)'
        def listener = new TlsListener(port)
        closeables << listener
        assert listener.receives()
        Files.copy(second.cert, certFile, StandardCopyOption.REPLACE_EXISTING)
        Files.copy(second.key, keyFile, StandardCopyOption.REPLACE_EXISTING)
        boolean reloaded = reloader.reload()

        then: 'the next handshake presents the new certificate; the listener keeps the old session and keeps receiving'
        reloaded
        TlsPeers.presentedSerial(port) == second.serial
        listener.receives()
        listener.serial() == first.serial
        curl('/metrics', second).contains('groovecast_')

        when: 'a certificate is put in place with a key that is not its own'
        Files.copy(third.cert, certFile, StandardCopyOption.REPLACE_EXISTING)
        boolean badReload = reloader.reload()

        then: 'the reload is refused with a line saying why, and the certificate on air stays'
        !badReload
        failures.messages().any { it.contains("harbor.tls(): port ${port}: the key in ${keyFile} is not the key of the certificate in ${certFile} (CN=127.0.0.1") }
        TlsPeers.presentedSerial(port) == second.serial
        listener.receives()

        when: 'an expired certificate is put in place with its key'
        Files.copy(expired.cert, certFile, StandardCopyOption.REPLACE_EXISTING)
        Files.copy(expired.key, keyFile, StandardCopyOption.REPLACE_EXISTING)
        boolean expiredReload = reloader.reload()

        then: 'the rest of the script reloads, the certificate on air stays, and a line says so'
        expiredReload
        warnings.messages().any { it.contains("harbor.tls(): port ${port}: the certificate in ${certFile} is out of date (CN=127.0.0.1, serial " + expired.serial.toString(16) + ', expired 2020-01-02 00:00 UTC); the one on air stays') }
        TlsPeers.presentedSerial(port) == second.serial
        listener.receives()
        dj.isAlive()
    }
}
