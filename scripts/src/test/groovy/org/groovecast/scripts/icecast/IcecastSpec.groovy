package org.groovecast.scripts.icecast

import ch.qos.logback.classic.Logger
import ch.qos.logback.classic.spi.ILoggingEvent
import ch.qos.logback.core.read.ListAppender
import java.nio.file.Path
import org.groovecast.host.Station
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.Icecast
import org.groovecast.scripts.support.LogList
import org.groovecast.scripts.support.Media
import org.groovecast.scripts.support.Net
import org.slf4j.LoggerFactory
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/** output.icecast against a real icecast2 server. */
@Tag("integration")
class IcecastSpec extends Specification {
    @TempDir
    Path dir

    Icecast icecast
    Station station

    def cleanup() {
        station?.stop()
        icecast?.kill()
    }

    Station stream(String password) {
        station = Engine.load('icecast.groovy', """
            def s = sine(440, amplitude: 0.3)
            thread.run(delay: 0.5) { -> s.insertMetadata(title: 'Spec Title', artist: 'Groovecast') }
            output.icecast(mp3(bitrate: 128), s, host: '127.0.0.1', port: ${icecast.port}, password: '${password}',
                    mount: 'radio', name: 'Spec FM', description: 'a test', genre: 'tones')
        """.stripIndent(), [:])
        station.start(null)
        station
    }

    double heard(String name) {
        Media.heard(dir.resolve(name), "http://127.0.0.1:${icecast.port}/radio")
    }

    def "the station streams to icecast2 with its title, and comes back after the server restarts"() {
        given:
        icecast = new Icecast().start()
        stream(Icecast.SOURCE_PASSWORD)

        expect: 'the mount appears with the stream description and the current title'
        Net.await(10) { icecast.hasMount('/radio') }
        Net.await(5) { icecast.status().contains('"title":"Groovecast - Spec Title"') }
        icecast.status().contains('"server_name":"Spec FM"')
        Math.abs(heard('first.wav') - 440) < 3

        when: 'icecast2 is killed and started again on the same port'
        icecast.stop()
        Thread.sleep(1500)
        icecast = new Icecast(icecast.port).start()

        then: 'the output reconnects, the mount plays again and the title is sent again'
        Net.await(20) { icecast.hasMount('/radio') }
        Net.await(5) { icecast.status().contains('"title":"Groovecast - Spec Title"') }
        Math.abs(heard('second.wav') - 440) < 3

        and: 'the clock never stopped'
        station.clocks().every { it.getLag() < 0.5 }
    }

    def "a wrong password is refused and retried without disturbing the station"() {
        given:
        icecast = new Icecast().start()
        stream('wrong')

        when:
        Thread.sleep(3000)

        then:
        !icecast.hasMount('/radio')
        station.clocks().every { it.getLag() < 0.5 && it.getTicks() > 100 }
    }
    def "a server that stops reading (SIGSTOP) is found out after the timeout, logged once and reconnected; the clock never waits"() {
        given:
        def logged = new LogList()
        logged.start()
        def reconnectionLog = (Logger) LoggerFactory.getLogger('org.groovecast.net.output.Reconnection')
        reconnectionLog.addAppender(logged)
        def clientLog = (Logger) LoggerFactory.getLogger('org.groovecast.net.icecast.IcecastClient')
        def clientLevel = clientLog.level
        clientLog.level = ch.qos.logback.classic.Level.INFO // its "streaming to" line tells each connection
        clientLog.addAppender(logged)
        icecast = new Icecast().start()
        station = Engine.load('icecast.groovy', """
            output.icecast(mp3(bitrate: 320), sine(440, amplitude: 0.3), host: '127.0.0.1', port: ${icecast.port},
                    password: '${Icecast.SOURCE_PASSWORD}', mount: 'radio', timeout: 2, onError: { e -> 1 })
        """.stripIndent(), [:])
        station.start(null)
        assert Net.await(10) { icecast.hasMount('/radio') }

        when: 'icecast2 is frozen: the connection stays open, nothing is read'
        icecast.pause()
        long t0 = System.nanoTime()
        boolean found = Net.await(60) { logged.list.any { it.formattedMessage.contains('stopped reading') } }
        double foundAfter = (System.nanoTime() - t0) / 1e9
        double lagDuring = station.clocks()*.getLag().max()
        println "icecast stall: found out after ${foundAfter.round(1)} s; clock lag ${lagDuring.round(3)} s"

        then: 'found out and logged, the clock not held up'
        found
        lagDuring < 0.5

        when: 'the server goes on'
        int connections = logged.list.count { it.formattedMessage.startsWith('output.icecast: streaming to') }
        icecast.resume()

        then: 'the output connects again (icecast may list the old source a moment longer) and a listener hears the tone'
        Net.await(30) { logged.list.count { it.formattedMessage.startsWith('output.icecast: streaming to') } > connections }
        Net.await(30) { icecast.hasMount('/radio') }
        Math.abs(heard('after.wav') - 440) < 3

        and: 'the stall was logged once, and the clock never stopped'
        logged.list.count { it.formattedMessage.contains('stopped reading') } == 1
        station.clocks().every { it.getLag() < 0.5 }

        cleanup:
        reconnectionLog.detachAppender(logged)
        clientLog.detachAppender(logged)
        clientLog.level = clientLevel
    }
}
