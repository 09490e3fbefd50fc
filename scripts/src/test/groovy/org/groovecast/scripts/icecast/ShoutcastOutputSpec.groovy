package org.groovecast.scripts.icecast

import java.nio.file.Path
import org.groovecast.host.Station
import org.groovecast.scripts.live.ShoutcastInputSpec
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.Icecast
import org.groovecast.scripts.support.Media
import org.groovecast.scripts.support.Net
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/** output.shoutcast against a real icecast2's shoutcast-compatible listen socket (the source on its port + 1). */
@Tag("integration")
class ShoutcastOutputSpec extends Specification {
    @TempDir
    Path dir

    Icecast icecast
    Station station

    def cleanup() {
        station?.stop()
        icecast?.kill()
    }

    Icecast shoutcastCompatible(int port = ShoutcastInputSpec.freePair()) {
        def i = new Icecast(port)
        i.listenExtra = '<shoutcast-mount>/stream</shoutcast-mount>'
        i.start()
        // icecast binds port + 1 for Shoutcast sources beside the listen socket; say so if it could not
        assert Net.await(10) { accepts(port + 1) }: "icecast2 does not listen on ${port + 1}: ${'ss -ltnp'.execute().text}"
        i
    }

    static boolean accepts(int port) {
        try {
            new Socket('127.0.0.1', port).close()
            true
        } catch (IOException ignored) {
            false
        }
    }

    Station stream(String password) {
        station = Engine.load('shoutcast.groovy', """
            def s = sine(440, amplitude: 0.3)
            thread.run(delay: 0.5) { -> s.insertMetadata(title: 'Shout Title', artist: 'Groovecast') }
            output.shoutcast(mp3(bitrate: 128), s, host: '127.0.0.1', port: ${icecast.port}, password: '${password}',
                    name: 'Shout FM', genre: 'tones', url: 'http://example.org/', description: 'a test')
        """.stripIndent(), [:])
        station.start(null)
        station
    }

    double heard(String name) {
        Media.heard(dir.resolve(name), "http://127.0.0.1:${icecast.port}/stream")
    }

    def "the station streams to icecast2's shoutcast-compatible socket with its icy headers and title, and comes back after a restart"() {
        given:
        icecast = shoutcastCompatible()
        stream(Icecast.SOURCE_PASSWORD)

        expect: 'the mount icecast gives Shoutcast sources appears with the icy headers and the title sent by admin.cgi'
        Net.await(10) { icecast.hasMount('/stream') }
        Net.await(5) { icecast.status().contains('"title":"Groovecast - Shout Title"') }
        icecast.status().contains('"server_name":"Shout FM"')
        icecast.status().contains('"genre":"tones"')
        icecast.status().contains('"server_url":"http://example.org/"')
        icecast.status().contains('"bitrate":128')
        Math.abs(heard('first.wav') - 440) < 3

        when: 'icecast2 is killed and started again on the same ports'
        icecast.stop()
        Thread.sleep(1500)
        icecast = shoutcastCompatible(icecast.port)

        then: 'the output reconnects, the title is sent again, a listener hears the tone'
        Net.await(20) { icecast.hasMount('/stream') }
        Net.await(5) { icecast.status().contains('"title":"Groovecast - Shout Title"') }
        Math.abs(heard('second.wav') - 440) < 3
        station.clocks().every { it.getLag() < 0.5 }
    }

    def "a wrong password is refused by the server and retried, the station undisturbed"() {
        given:
        icecast = shoutcastCompatible()
        stream('wrong')

        when:
        Thread.sleep(3000)

        then:
        !icecast.hasMount('/stream')
        station.clocks().every { it.getLag() < 0.5 && it.getTicks() > 100 }
    }
}
