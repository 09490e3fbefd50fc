package org.groovecast.scripts.icecast

import java.nio.file.Path
import org.groovecast.host.Station
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.Icecast
import org.groovecast.scripts.support.Media
import org.groovecast.scripts.support.Net
import org.groovecast.scripts.support.Wav
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/**
 * Fanning listeners out through real icecast2 relays, with no code of ours in between: an
 * icecast {@code <relay>} pulling the harbor's mount (titles through its ICY metadata), and a
 * master/slave pair fed by output.icecast. A listener on the relay hears the station's tone and
 * the relay's status-json.xsl shows the station's title.
 */
@Tag("integration")
class IcecastRelaySpec extends Specification {
    @TempDir
    Path dir

    List<Icecast> servers = []
    Station station

    def cleanup() {
        station?.stop()
        servers.each { it.kill() }
    }

    Icecast server(Closure configure = {}) {
        def i = new Icecast()
        configure(i)
        servers << i.start()
        i
    }

    double heard(Icecast relay, String mount, String name) {
        Path wav = dir.resolve(name)
        Media.run(['ffmpeg', '-nostdin', '-v', 'error', '-y', '-t', '3', '-i', "http://127.0.0.1:${relay.port}${mount}".toString(),
                   '-ac', '1', '-ar', '44100', '-bitexact', wav.toString()])
        Wav w = Wav.read(wav)
        assert w.seconds > 2.5
        w.frequency(0.5, w.seconds - 0.2)
    }

    def "an icecast <relay> pulls the harbor's mount with its ICY titles: a listener on the relay hears the station, its status shows the title"() {
        given: 'the station serves /radio itself, and changes its title once the relay is connected'
        int harbor = Net.freePort()
        station = Engine.load('relayed.groovy', """
            def s = sine(660, amplitude: 0.3)
            thread.run(delay: 0.3) { -> s.insertMetadata(title: 'First Title', artist: 'Groovecast') }
            output.harbor(mp3(bitrate: 128), s, mount: 'radio', port: ${harbor}, name: 'Relay FM')
            harbor.http.register('/retitle', port: ${harbor}) { req -> s.insertMetadata(title: 'Second Title', artist: 'Groovecast'); 'ok' }
        """.stripIndent(), [:])
        station.start(null)

        and: 'an icecast2 relaying it, always on, with the shoutcast metadata asked for'
        Icecast relay = server { Icecast i ->
            i.configExtra = """
                <relay><server>127.0.0.1</server><port>${harbor}</port><mount>/radio</mount>
                  <local-mount>/relayed</local-mount><on-demand>0</on-demand>
                  <relay-shoutcast-metadata>1</relay-shoutcast-metadata></relay>"""
        }

        expect: 'the relayed mount is up with the station title that was current when the relay connected'
        Net.await(20) { relay.hasMount('/relayed') }
        Net.await(10) { relay.status().contains('"title":"Groovecast - First Title"') }
        Math.abs(heard(relay, '/relayed', 'relayed.wav') - 660) < 3

        when: 'the station changes its title'
        new URL("http://127.0.0.1:${harbor}/retitle").text

        then: 'the relay shows the new one within its next ICY metadata blocks'
        Net.await(10) { relay.status().contains('"title":"Groovecast - Second Title"') }
        station.clocks().every { it.getLag() < 0.5 }
    }

    def "a master/slave pair: output.icecast feeds icecast A, icecast B pulls A's mounts as its <master-server>; a listener on B hears the station, B's status shows the title"() {
        given: 'icecast A with a relay user, the station streaming to it'
        Icecast master = server { Icecast i -> i.authExtra = '<relay-user>relay</relay-user><relay-password>relaypw</relay-password>' }
        station = Engine.load('master.groovy', """
            def s = sine(550, amplitude: 0.3)
            thread.run(delay: 0.3) { -> s.insertMetadata(title: 'Master Title', artist: 'Groovecast') }
            output.icecast(mp3(bitrate: 128), s, host: '127.0.0.1', port: ${master.port}, password: '${Icecast.SOURCE_PASSWORD}',
                    mount: 'radio', name: 'Master FM')
        """.stripIndent(), [:])
        station.start(null)
        assert Net.await(10) { master.hasMount('/radio') }

        and: 'icecast B, a slave of A, asking for its stream list every second'
        Icecast slave = server { Icecast i ->
            i.configExtra = """
                <master-server>127.0.0.1</master-server><master-server-port>${master.port}</master-server-port>
                <master-update-interval>1</master-update-interval>
                <master-username>relay</master-username><master-password>relaypw</master-password>
                <relays-on-demand>0</relays-on-demand>"""
        }

        expect: 'B carries /radio, with the station title, and a listener on B hears the tone'
        Net.await(30) { slave.hasMount('/radio') }
        Net.await(15) { slave.status().contains('"title":"Groovecast - Master Title"') }
        Math.abs(heard(slave, '/radio', 'slave.wav') - 550) < 3
        station.clocks().every { it.getLag() < 0.5 }
    }
}
