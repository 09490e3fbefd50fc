package org.groovecast.scripts.requests

import java.nio.file.Files
import java.nio.file.Path
import java.time.Duration
import org.groovecast.host.Station
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.Media
import org.groovecast.scripts.support.Net
import org.groovecast.scripts.support.Telnet
import org.groovecast.scripts.support.Wav
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/**
 * A skip ends the track playing for everything downstream at once, though the source has its next
 * track prepared: a track-sensitive switch above chooses again, onTrack fires, a crossfade cuts.
 * The stations are issue 24's: an AutoDJ over three 20 s songs at 440 Hz, a request queue first in
 * a track-sensitive fallback, a 5 s request at 880 Hz pushed before the skip. Times are stream time.
 */
@Tag("integration")
class SkipSpec extends Specification {
    @TempDir
    Path dir

    Station station

    def cleanup() {
        station?.stop()
    }

    Path music() {
        Path m = dir.resolve('music')
        Files.createDirectories(m)
        (1..3).each { Files.copy(Media.mp3("skip-music${it}.mp3", [440], 20, "music${it}"), m.resolve("m${it}.mp3")) }
        m
    }

    Path request() {
        Media.mp3('skip-request.mp3', [880], 5, 'request')
    }

    /** The script's onTrack lines: {@code title at seconds}. */
    List<String> tracks(Station st) {
        st.scriptLog().recent().findAll { it.startsWith('info: track ') }.collect { it - 'info: track ' }
    }

    /** An AutoDJ of each kind, playing the three songs in order. */
    static String autodj(String kind, Path music) {
        switch (kind) {
            case 'request.dynamic':
                return "int n = 0\ndef autodj = request.dynamic(id: 'autodj') { -> \"${music}/m\${(n++ % 3) + 1}.mp3\".toString() }"
            case 'playlist':
                return "def autodj = playlist('${music}', id: 'autodj', mode: 'normal')"
            case 'request.queue':
                return "def autodj = request.queue(id: 'autodj', queue: ['${music}/m1.mp3', '${music}/m2.mp3', '${music}/m3.mp3'])"
        }
        throw new IllegalArgumentException(kind)
    }

    /**
     * The station: {@code radio} chooses between the queue and the AutoDJ; the request is pushed at
     * 1 s (unless {@code push} is false), {@code skipped} is skipped at 2 s. {@code radio} is then
     * wrapped as {@code wrap} says.
     */
    String station(String kind, String radio, String skipped, String wrap = 'radio', boolean push = true) {
        """
            ${autodj(kind, music())}
            def q = request.queue(id: 'q')
            boolean pushed = false
            boolean skipped = false
            def radio = ${radio}
            radio = ${wrap}
            radio.onTrack { m -> log.info("track \${m.title} at \${String.format('%.1f', radio.clock.time)}") }
            radio.onFrame(before: true) { ->
                if (!pushed && radio.clock.time >= 1) { pushed = ${push}; ${push ? "q.push('${request()}')" : ''} }
                if (!skipped && radio.clock.time >= 2) { skipped = true; ${skipped}.skip() }
            }
            output.file(wav(), '${dir.resolve('out.wav')}', mksafe(radio))
        """
    }

    static double f(Wav w, double from, double to) { Math.round(w.frequency(from, to) / 10) * 10 }

    def "issue 24, in real time: a skip of the AutoDJ with its next song prepared plays the waiting request at once, as a new track"() {
        given:
        String script = station('request.dynamic', "fallback(id: 'radio', trackSensitive: true, q, autodj)", 'autodj')

        when:
        station = Engine.load('skip.groovy', script)
        station.start(Duration.ofMillis(3500))
        assert station.awaitStopped(Duration.ofSeconds(30))
        Wav w = Wav.read(dir.resolve('out.wav'))

        then: 'the request starts at the skip, 2 s, where music2 went on before (the request came 18 s later)'
        tracks(station) == ['music1 at 0.0', 'request at 2.0']
        f(w, 1.5, 1.95) == 440
        f(w, 2.05, 3.0) == 880
    }

    def "rendered offline: a skip of a #kind AutoDJ, or of the #skipped above it, makes the track-sensitive fallback choose the request at once"() {
        when:
        station = Engine.render('skip.groovy', station(kind, "fallback(id: 'radio', trackSensitive: true, q, autodj)", skipped), 4)
        Wav w = Wav.read(dir.resolve('out.wav'))

        then:
        tracks(station) == ['music1 at 0.0', 'request at 2.0']
        f(w, 1.5, 1.95) == 440
        f(w, 2.05, 3.9) == 880
        w.seconds == 4.0d

        where:
        kind              | skipped
        'request.dynamic' | 'autodj'
        'request.dynamic' | 'radio'
        'playlist'        | 'autodj'
        'playlist'        | 'radio'
        'request.queue'   | 'autodj'
        'request.queue'   | 'radio'
    }

    def "a track-sensitive switchOn chooses again at a skip"() {
        when:
        String radio = "switchOn(id: 'radio', [[{ -> pushed }, q], [true, autodj]])"
        station = Engine.render('skip.groovy', station('playlist', radio, 'radio'), 4)

        then:
        tracks(station) == ['music1 at 0.0', 'request at 2.0']
    }

    def "without a request waiting a skip plays the AutoDJ's next song at once, as a new track"() {
        when:
        station = Engine.render('skip.groovy', station(kind, 'autodj', 'autodj', 'radio', false), 4)
        Wav w = Wav.read(dir.resolve('out.wav'))

        then:
        tracks(station) == ['music1 at 0.0', 'music2 at 2.0']
        w.seconds == 4.0d

        where:
        kind << ['request.dynamic', 'playlist', 'request.queue']
    }

    def "a skip through a crossfade cuts to the request at once, without a fade"() {
        when:
        String script = station('request.dynamic', "fallback(id: 'radio', trackSensitive: true, q, autodj)", 'radio',
                'crossfade(radio, duration: 1)')
        station = Engine.render('skip.groovy', script, 4)
        Wav w = Wav.read(dir.resolve('out.wav'))

        then:
        tracks(station) == ['music1 at 0.0', 'request at 2.0']
        f(w, 1.5, 1.95) == 440
        f(w, 2.02, 2.5) == 880
        w.seconds == 4.0d
    }

    def "a skip of a source that plays nothing ends no track"() {
        when: 'the queue is skipped while it is empty and the AutoDJ plays'
        station = Engine.render('skip.groovy',
                station('request.dynamic', "fallback(id: 'radio', trackSensitive: true, q, autodj)", 'q', 'radio', false), 4)
        Wav w = Wav.read(dir.resolve('out.wav'))

        then:
        tracks(station) == ['music1 at 0.0']
        f(w, 0.1, 3.9) == 440
    }

    def "the <id>.skip control command over telnet and HTTP ends the track at once: the waiting request plays, then the next song"() {
        given:
        int port = Net.freePort()
        int httpPort = Net.freePort()
        String script = """
            ${autodj('request.dynamic', music())}
            def q = request.queue(id: 'q')
            def radio = fallback(id: 'radio', trackSensitive: true, q, autodj)
            radio.onTrack { m -> log.info("track \${m.title}") }
            server.telnet(port: ${port})
            server.http(port: ${httpPort}, token: 'secret')
            output.dummy(mksafe(radio))
        """
        station = Engine.load('skip.groovy', script)
        station.start(null)
        def t = new Telnet(port)

        when: 'the AutoDJ plays music1, music2 is prepared; a request waits'
        assert Net.await(5) { tracks(station) == ['music1'] }
        t.cmd("q.push ${request()}")
        assert Net.await(5) { t.cmd('q.queue').contains('skip-request.mp3') }
        Thread.sleep(300)
        String answer = t.cmd('autodj.skip')

        then: 'the request plays as a new track'
        answer == 'Done'
        Net.await(2) { tracks(station) == ['music1', 'request'] }

        when: 'skipped over HTTP, the request gives way to the AutoDJ, whose next song was prepared'
        String http = Net.raw(httpPort, "GET /control/radio.skip HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer secret\r\nConnection: close\r\n\r\n")

        then:
        Net.status(http) == 200
        Net.await(2) { tracks(station) == ['music1', 'request', 'music2'] }

        cleanup:
        t?.close()
    }
}
