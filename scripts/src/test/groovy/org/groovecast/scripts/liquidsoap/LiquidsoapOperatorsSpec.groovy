package org.groovecast.scripts.liquidsoap

import java.nio.file.Files
import java.nio.file.Path
import org.groovecast.host.Station
import org.groovecast.scripts.plugins.PluginCliSpec
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.Media
import org.groovecast.scripts.support.Wav
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/**
 * .liq stations rendered offline through the engine's operators: requests with real MP3s,
 * crossfade, metadata, a third party's plugin operator.
 */
@Tag("integration")
class LiquidsoapOperatorsSpec extends Specification {
    @TempDir
    Path dir

    Station render(String script, double seconds) {
        Engine.render('station.liq', script.replace('OUT', dir.resolve('out.wav').toString()), seconds)
    }

    Wav wav() { Wav.read(dir.resolve('out.wav')) }

    static double f(Wav w, double from, double to) { Math.round(w.frequency(from, to) / 10) * 10 }

    def "request.dynamic plays what its function answers, request.queue what is pushed, titles to on_track"() {
        given:
        Path a = Media.mp3('liq-a.mp3', [440], 1, 'A')
        Path b = Media.mp3('liq-b.mp3', [660], 1, 'B')
        Path c = Media.mp3('liq-c.mp3', [880], 2, 'Pushed')

        when:
        Station st = render("""
            log.level := 4
            files = ref(["${a}", "${b}"])
            def next() =
              let [f, ...rest] = files()
              files := list.append(rest, [f])
              request.create(f)
            end
            music = request.dynamic(prefetch=1, next)
            q = request.queue(id="requests")
            rid = q.push(request.create("${c}"))
            log.info("pushed #{rid}")
            s = fallback(track_sensitive=true, [q, music])
            s.on_track(synchronous=false, fun (m) -> log.info("track #{m['title']}"))
            output.file(%wav, "OUT", mksafe(s))
            """, 6)
        Wav w = wav()
        List<String> tracks = st.scriptLog().recent().findAll { it.startsWith('info: track') }

        then: 'the pushed request first (the fallback prefers the queue), then the function answers, in turn'
        f(w, 0.2, 1.8) == 880
        f(w, 2.2, 2.8) == 440
        f(w, 3.2, 3.8) == 660
        tracks.take(3) == ['info: track Pushed', 'info: track A', 'info: track B']
        // request ids count requests of the whole process, as Liquidsoap's do: other specs in this JVM made some
        st.scriptLog().recent().any { it ==~ /info: pushed [1-9][0-9]*/ }
    }

    def "crossfade overlaps the tracks; amplify takes a getter"() {
        given:
        Path a = Media.mp3('liq-x.mp3', [440], 3, 'X')
        Path b = Media.mp3('liq-y.mp3', [660], 3, 'Y')

        when:
        render("""
            volume = ref(0.5)
            s = playlist(mode="normal", "${dir.resolve('list.m3u')}")
            s = crossfade(duration=1., fade_in=1., fade_out=1., s)
            s = amplify({volume()}, s)
            output.file(%wav, "OUT", mksafe(s))
            """.tap { Files.write(dir.resolve('list.m3u'), [a.toString(), b.toString()]) }, 5)
        Wav w = wav()

        then: 'the first track, then both at once, then the second'
        f(w, 0.5, 1.5) == 440
        f(w, 3.5, 4.5) == 660
    }

    def "a third party's plugin operator is called from .liq by the naming rule: example.widen(width=0.) makes mono"() {
        given: 'a plugins directory with the core plugin and the example plugin, unchanged'
        Path plugins = dir.resolve('plugins')
        Files.createDirectories(plugins)
        Files.copy(Engine.PLUGINS.resolve('core.jar'), plugins.resolve('core.jar'))
        Files.copy(PluginCliSpec.WIDENER, plugins.resolve('example-widener.jar'))
        Path script = dir.resolve('wide.liq')
        Path out = dir.resolve('out.wav')
        Files.writeString(script, """\
            s = add([sine(amplitude=0.3, 440.), sine(amplitude=0.3, 660.)])
            output.file(%wav, "${out}", example.widen(width=0., s))
            """.stripIndent())

        when:
        def r = Engine.cli('run', '--plugins-dir', plugins.toString(), '--set', 'clock.sync=none', '--stop-after', '1', script.toString())
        Wav w = Wav.read(out)

        then:
        r.code == 0
        (0..<1000).every { i -> w.samples[0][4410 + i] == w.samples[1][4410 + i] }
    }

    def "http.get and http.post answer Liquidsoap's way: the body with status_code and headers; json.parse reads it"() {
        given: 'a small HTTP server standing in for an API'
        def server = com.sun.net.httpserver.HttpServer.create(new InetSocketAddress('127.0.0.1', 0), 0)
        List<String> posted = Collections.synchronizedList([])
        server.createContext('/next') { ex ->
            byte[] body = '{"uri": "/music/a.mp3", "title": "A"}'.bytes
            ex.responseHeaders.add('Content-Type', 'application/json')
            ex.sendResponseHeaders(200, body.length)
            ex.responseBody.withCloseable { it.write(body) }
        }
        server.createContext('/feedback') { ex ->
            posted << new String(ex.requestBody.readAllBytes())
            ex.sendResponseHeaders(204, -1)
            ex.close()
        }
        server.start()
        int port = server.address.port
        Station st = Engine.load('api.liq', """\
            log.level := 4
            def ask() =
              r = http.get("http://127.0.0.1:${port}/next")
              let json.parse (song : {uri: string, title: string}) = r
              log.info("#{r.status_code} #{song.title} #{song.uri}")
              p = http.post(data=json.stringify({title=song.title}), headers=[("Content-Type", "application/json")],
                            "http://127.0.0.1:${port}/feedback")
              log.info("posted #{p.status_code}")
            end
            thread.run(fast=false, ask)
            output.dummy(sine())
            """.stripIndent())

        when:
        st.start(null)
        boolean done = org.groovecast.scripts.support.Net.await(30) { st.scriptLog().recent().any { it.contains('posted') } }

        then:
        done
        st.scriptLog().recent().contains('info: 200 A /music/a.mp3')
        st.scriptLog().recent().contains('info: posted 204')
        posted == ['{ "title": "A" }']

        cleanup:
        st?.stop()
        server?.stop(0)
    }
}
