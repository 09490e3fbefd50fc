package org.groovecast.scripts.status

import com.fasterxml.jackson.databind.ObjectMapper
import java.net.http.HttpClient
import java.net.http.HttpRequest
import java.net.http.HttpResponse
import java.time.Duration
import org.groovecast.host.Station
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.Icecast
import org.groovecast.scripts.support.Net
import spock.lang.Specification
import spock.lang.Tag

/**
 * /healthz and /readyz on a status port, as a container runtime or Kubernetes probes them: a
 * station on air, an output.icecast to a real icecast2 killed under it, a clock that cannot keep
 * up, a scheduler whose only worker is stuck in a script callback.
 */
@Tag("integration")
class HealthSpec extends Specification {
    static final ObjectMapper JSON = new ObjectMapper()
    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build()

    int port = Net.freePort()
    Station station
    Icecast icecast

    def cleanup() {
        station?.stop()
        icecast?.kill()
    }

    Station start(String script) {
        station = Engine.load('health.groovy', script.replace('PORT', port.toString())
                .replace('ICE', String.valueOf(icecast?.port)), [:])
        station.start(null)
        station
    }

    /** Status code and body of a probe. */
    Map probe(String path) {
        def r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:${port}${path}"))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString())
        assert r.headers().firstValue('content-type').orElse('').startsWith('application/json')
        assert r.headers().firstValue('cache-control').orElse(null) == 'no-store'
        [code: r.statusCode(), body: JSON.readValue(r.body(), Map)]
    }

    def "live and ready on air; an output.icecast of an infallible source whose server goes away makes it unready, by name; one of a fallible source does not"() {
        given: 'a harbor mount, a relay to a real icecast2, and a relay of a live input (fallible) to a port where nothing listens'
        icecast = new Icecast().start()
        start("""
            def tone = sine(440, amplitude: 0.2)
            output.harbor(mp3(bitrate: 128), tone, mount: 'radio', port: PORT)
            output.icecast(mp3(bitrate: 128), tone, host: '127.0.0.1', port: ICE,
                    password: '${Icecast.SOURCE_PASSWORD}', mount: 'relay', id: 'relay')
            output.icecast(mp3(bitrate: 128), input.harbor('dj', port: PORT), host: '127.0.0.1', port: ${Net.freePort()},
                    password: 'x', mount: 'spare', id: 'spare', fallible: true)
            status.page(port: PORT)
        """)

        expect: 'live at once, ready once the relay is connected'
        probe('/healthz').code == 200
        probe('/healthz').body.live == true
        probe('/healthz').body.station == 'health.groovy'
        probe('/healthz').body.schedulerIdle < 2
        Net.await(10) { probe('/readyz').code == 200 }
        probe('/readyz').body == [ready: true, station: 'health.groovy']

        when: 'the server dies'
        icecast.kill()

        then: 'unready, naming the relay and only it; still live'
        Net.await(10) { probe('/readyz').code == 503 }
        probe('/readyz').body.ready == false
        probe('/readyz').body.outputs == [[id: 'relay', kind: 'output.icecast', connected: false]]
        probe('/readyz').body.clocks == null
        probe('/healthz').code == 200
    }

    def "a clock behind real time makes the station unready, naming the clock"() {
        given: '30 ms of work in every 20 ms frame of its one clock'
        start('''
            settings.clock.warnLag = 0.1
            def slow = sine(440.0, amplitude: 0.1)
            slow.onFrame { -> long until = System.nanoTime() + 30_000_000L; while (System.nanoTime() < until) {} }
            output.dummy(slow, id: 'slow')
            clock.assignNew(id: 'slow', [slow])
            status.page(port: PORT)
        ''')

        expect:
        Net.await(10) { probe('/readyz').code == 503 }
        def body = probe('/readyz').body
        body.ready == false
        body.clocks*.id == ['slow']
        body.clocks[0].lag > 0.1
        body.clocks[0].behindSince != null
        body.outputs == null
        probe('/healthz').code == 200
    }

    def "a scheduler whose only worker is stuck in a callback is not live past scheduler.stallLimit, and live again once it runs"() {
        given: 'one scheduler worker; 6 s into a fast thread.run function that does not return, from 1 s on'
        start('''
            settings.scheduler.threads = 1
            settings.scheduler.stallLimit = 2
            output.harbor(mp3(bitrate: 64), sine(440, amplitude: 0.1), mount: 'radio', port: PORT)
            thread.run(delay: 1, fast: true) { -> long until = System.nanoTime() + 6_000_000_000L; while (System.nanoTime() < until) {} }
            status.page(port: PORT)
        ''')

        expect: 'live, then 503 from 2 s into the stall, naming how long the scheduler has been idle'
        probe('/healthz').code == 200
        Net.await(8) { probe('/healthz').code == 503 }
        def body = probe('/healthz').body
        body.live == false
        body.schedulerIdle >= 2
        probe('/readyz').code == 503
        probe('/readyz').body.scheduler.startsWith('no task started for')

        and: 'the callback returns, the scheduler runs again: live'
        Net.await(10) { probe('/healthz').code == 200 }
    }

    def "before a station is on air both answer 503"() {
        given: 'a station loaded, its port bound, its clocks not started'
        station = Engine.load('health.groovy', """
            output.harbor(mp3(bitrate: 64), sine(440, amplitude: 0.1), mount: 'radio', port: ${port})
            status.page(port: ${port})
        """, [:])
        station.prepare(null)

        expect:
        probe('/healthz').code == 503
        probe('/healthz').body == [live: false, station: null, starting: 'no station is on air yet']
        probe('/readyz').code == 503
        probe('/readyz').body.ready == false
    }
}
