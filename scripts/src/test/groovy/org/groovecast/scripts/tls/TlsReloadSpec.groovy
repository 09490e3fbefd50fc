package org.groovecast.scripts.tls

import java.nio.file.Files
import java.nio.file.Path
import org.groovecast.host.StationReloader
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.Icecast
import org.groovecast.scripts.support.LogCapture
import org.groovecast.scripts.support.Net
import org.groovecast.scripts.support.SelfSigned
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/**
 * A reload that changes how an output.icecast speaks TLS makes it connect again with the new
 * settings (a kept connection would keep the old ones for ever), against a real icecast2 with a
 * self-signed certificate.
 */
@Tag("integration")
class TlsReloadSpec extends Specification {
    @TempDir
    Path dir

    StationReloader reloader
    Icecast icecast
    List<Closeable> closeables = []

    def cleanup() {
        closeables.each { it.close() }
        reloader?.stop()
        icecast?.kill()
    }

    /** What was logged so far; the appender appends under its own lock. */
    static List<String> logged(LogCapture c) {
        synchronized (c.appender) {
            new ArrayList<>(c.messages())
        }
    }

    /** TCP connections established to {@code port} now. */
    static int connectionsTo(int port) {
        ['ss', '-Htn', 'state', 'established', "( dport = :${port} )".toString()].execute().text.readLines().count { !it.isBlank() }
    }

    String script(boolean verify) {
        """
        def s = sine(440, amplitude: 0.3)
        output.icecast(mp3(bitrate: 128), s, id: 'named', host: '127.0.0.1', port: ${icecast.sslPort},
                password: '${Icecast.SOURCE_PASSWORD}', mount: 'a', tls: true, tlsVerify: ${verify})
        output.icecast(mp3(bitrate: 128), s, host: '127.0.0.1', port: ${icecast.sslPort},
                password: '${Icecast.SOURCE_PASSWORD}', mount: 'b', tls: true, tlsVerify: ${verify})
        """.stripIndent()
    }

    def "turning tlsVerify on by a reload reconnects the outputs, which now refuse the self-signed certificate"() {
        given: 'two outputs (one named, one paired by its endpoint) taking any certificate, connected'
        def cert = new SelfSigned(dir, 'icecast')
        icecast = new Icecast().withSsl(cert.combined).start()
        def retries = new LogCapture('org.groovecast.net.output.Reconnection')
        closeables << retries
        Path file = dir.resolve('tls.groovy')
        Files.writeString(file, script(false))
        reloader = new StationReloader(file, Engine.plugins().functions(), [:])
        reloader.start()
        assert Net.await(15) { icecast.hasMount('/a') && icecast.hasMount('/b') }
        assert connectionsTo(icecast.sslPort) == 2

        when: 'the script turns verification on, with no tlsTrust, and is reloaded'
        Files.writeString(file, script(true))
        boolean reloaded = reloader.reload()
        def report = reloader.lastReload()
        println "reload: kept ${report.kept()}, started ${report.started()}, stopped ${report.stopped()}"

        then: 'the reload says what changed, and each output connects again and now logs the untrusted certificate'
        reloaded
        report.started().any { it.contains('/b') && it.contains('TLS)') }
        ['a', 'b'].every { mount ->
            Net.await(15) {
                logged(retries).any {
                    it.startsWith("output.icecast icecast+tls://127.0.0.1:${icecast.sslPort}/${mount}: TLS handshake failed: " +
                            'certificate not trusted (CN=127.0.0.1')
                }
            }
        }

        and: 'the connections made without the check are closed (icecast2 2.4 keeps listing a TLS source whose '
        'connection closed, so the sockets are looked at)'
        Net.await(10) { connectionsTo(icecast.sslPort) == 0 }
    }
}
