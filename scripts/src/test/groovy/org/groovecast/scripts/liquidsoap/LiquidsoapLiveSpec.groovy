package org.groovecast.scripts.liquidsoap

import java.nio.file.Files
import java.nio.file.Path
import org.groovecast.host.Station
import org.groovecast.host.StationReloader
import org.groovecast.scripts.live.LiveInputSpec
import org.groovecast.scripts.reload.ReloadKeepsSpec
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.Icecast
import org.groovecast.scripts.support.LogCapture
import org.groovecast.scripts.support.Media
import org.groovecast.scripts.support.Net
import org.groovecast.scripts.support.Telnet
import org.groovecast.scripts.support.Wav
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/**
 * .liq stations in real time against the peers the Groovy specs use: icecast2, ffmpeg listeners
 * and a DJ, the telnet control, and a reload that keeps its listener.
 */
@Tag("integration")
class LiquidsoapLiveSpec extends Specification {
    @TempDir
    Path dir

    int port = Net.freePort()
    int telnetPort = Net.freePort()
    Icecast icecast
    Station station
    StationReloader reloader
    Process dj

    def cleanup() {
        station?.stop()
        reloader?.stop()
        dj?.destroy()
        icecast?.stop()
    }

    def "output.icecast(%mp3) to a real icecast2: the mount, its name, the titles the script inserts, the tone"() {
        given:
        icecast = new Icecast().start()
        station = Engine.load('icecast.liq', """\
            s = sine(amplitude=0.3, 440.)
            thread.run(delay=0.5, fun () -> s.insert_metadata([("title", "Liq Title"), ("artist", "Groovecast")]))
            output.icecast(%mp3(bitrate=128), host="127.0.0.1", port=${icecast.port}, password="${Icecast.SOURCE_PASSWORD}",
                           mount="radio", name="Liq FM", description="a .liq station", s)
            """.stripIndent())
        station.start(null)

        expect:
        Net.await(10) { icecast.hasMount('/radio') }
        Net.await(5) { icecast.status().contains('"title":"Groovecast - Liq Title"') }
        icecast.status().contains('"server_name":"Liq FM"')
        Math.abs(Media.heard(dir.resolve('heard.wav'), "http://127.0.0.1:${icecast.port}/radio") - 440) < 3
    }

    def "output.icecast(%ffmpeg(format=\"mp3\", %audio(codec=\"libmp3lame\", ac=2, ar=44100, ...))) to icecast2: the mount's title follows each track"() {
        given: 'three tracks of 2 s, each titled, encoded as AzuraCast encodes its MP3 mounts'
        icecast = new Icecast().start()
        Path list = dir.resolve('tracks.m3u')
        Files.writeString(list, (1..3).collect { Media.mp3("title-track-${it}.mp3", [440 + 110 * it], 2.0, "Track ${it}").toString() }.join('\n') + '\n')
        station = Engine.load('titles.liq', """\
            s = playlist(mode="normal", "${list}")
            s = cross(duration=1., fun (a, b) -> cross.simple(a.source, b.source, fade_in=0.5, fade_out=0.5), s)
            s = fallback(track_sensitive=false, [s, sine(amplitude=0.1, 220.)])
            # AzuraCast's jingle mode: each metadata replaced by what the function gives
            s = metadata.map(update=false, strip=true, fun (m) -> m, s)
            output.icecast(%ffmpeg(format="mp3", %audio(codec="libmp3lame", ac=2, ar=44100, b="128k")),
                           host="127.0.0.1", port=${icecast.port}, password="${Icecast.SOURCE_PASSWORD}",
                           mount="/radio.mp3", encoding="UTF-8", s)
            output.icecast(%ffmpeg(format="adts", %audio(codec="aac", samplerate=44100, channels=2, b="64k")),
                           host="127.0.0.1", port=${icecast.port}, password="${Icecast.SOURCE_PASSWORD}",
                           mount="/radio.aac", encoding="UTF-8", s)
            """.stripIndent())
        station.start(null)

        expect: 'each mount shows each title in turn'
        Net.await(10) { icecast.hasMount('/radio.mp3') && icecast.hasMount('/radio.aac') }
        ['/radio.mp3', '/radio.aac'].every { mount ->
            (1..3).every { n -> Net.await(10) { mountTitle(mount) == "Groovecast Tests - Track ${n}".toString() } }
        }
    }

    /** The title icecast2's status-json.xsl shows for {@code mount}, or null. */
    String mountTitle(String mount) {
        def status = icecast.status()
        if (status == null) return null
        def sources = new com.fasterxml.jackson.databind.ObjectMapper().readTree(status).path('icestats').path('source')
        def all = sources.isArray() ? sources.toList() : [sources]
        def found = all.find { it.path('listenurl').asText('').endsWith(mount) }
        found?.path('title')?.asText(null)
    }

    def "a harbor DJ takes over from the music for an ffmpeg listener; auth and on_connect are the script's; server.register answers over telnet"() {
        given:
        station = Engine.load('live.liq', """\
            settings.server.telnet := true
            settings.server.telnet.port := ${telnetPort}
            connected = ref(0)
            def auth(info) =
              info.user == "source" and info.password == "secret"
            end
            live = input.harbor("live", port=${port}, auth=auth, on_connect=fun (_) -> connected := connected() + 1, buffer=0.5)
            radio = fallback(track_sensitive=false, [live, sine(amplitude=0.3, 440.)])
            output.harbor(%mp3(bitrate=128), mount="radio", port=${port}, radio)
            server.register(namespace="radio", "connected", fun (_) -> "DJs so far: #{connected()}")
            """.stripIndent())
        station.start(null)

        when: 'a DJ with a wrong password, then the right one, streams 880 Hz'
        Process wrong = LiveInputSpec.sourceClient(port, 'nope', 3, 660)
        wrong.waitFor()
        dj = LiveInputSpec.sourceClient(port, 'secret', 8, 880)
        Thread.sleep(2500)
        // the mount's burst still holds the sine from before the DJ: what comes after it
        double heard = Media.heardAfterBurst(dir.resolve('heard.wav'), "http://127.0.0.1:${port}/radio")
        def telnet = new Telnet(telnetPort)
        String answer = telnet.cmd('radio.connected')
        telnet.close()

        then:
        Math.abs(heard - 880) < 5
        answer == 'DJs so far: 1'
    }

    def "a reload of the .liq file keeps its listener on output.harbor, and the new tone plays"() {
        given:
        Path script = dir.resolve('station.liq')
        Closure<String> text = { int tone ->
            """\
            s = sine(amplitude=0.3, ${tone}.)
            output.harbor(%mp3(bitrate=128), mount="radio", port=${port}, s)
            """.stripIndent()
        }
        Files.writeString(script, text(440))
        reloader = new StationReloader(script, Engine.plugins().functions(), [:])
        reloader.start()
        def listener = new ReloadKeepsSpec.Listener(port)
        assert listener.readFor(1500)

        when:
        Files.writeString(script, text(660))
        boolean reloaded = reloader.reload()
        boolean kept = listener.readFor(2000)
        double after = Media.heardAfterBurst(dir.resolve('after.wav'), "http://127.0.0.1:${port}/radio")

        and: 'a broken edit is refused; the station stays on air'
        Files.writeString(script, 'output.harbor(%mp3, mount="radio", port=' + port + ', sinus(440.))\n')
        boolean brokenReloaded = reloader.reload()
        boolean stillKept = listener.readFor(1500)

        and: 'so is an edit that does not type-check, before anything of it is built'
        Files.writeString(script, text(880).replace('amplitude=0.3', 'amplitude="loud"'))
        def log = new LogCapture(StationReloader.name)
        boolean illTypedReloaded = reloader.reload()
        log.close()
        boolean keptAgain = listener.readFor(1500)

        then:
        reloaded
        kept
        Math.abs(after - 660) < 3
        !brokenReloaded
        stillKept
        !illTypedReloaded
        keptAgain
        log.messages().any { it.contains('station.liq:1:19: this value has type string but it should be a subtype of float') }
        reloader.current().scriptFiles() == [script.toAbsolutePath().normalize()] || reloader.current().scriptFiles() == [script]
    }

    def "groovecast reload asks a .liq station over the telnet its settings open; its %include is told to the watcher"() {
        given:
        Path lib = dir.resolve('lib.liq')
        Path script = dir.resolve('station.liq')
        Files.writeString(lib, 'def tone() = 440. end\n')
        Files.writeString(script, """\
            settings.server.telnet := true
            settings.server.telnet.port := ${telnetPort}
            %include "lib.liq"
            output.harbor(%mp3(bitrate=128), mount="radio", port=${port}, sine(amplitude=0.3, tone()))
            """.stripIndent())
        List<Path> watched = []
        reloader = new StationReloader(script, Engine.plugins().functions(), [:])
        reloader.onIncludedFile { watched << it }
        reloader.start()

        when:
        Files.writeString(lib, 'def tone() = 660. end\n')
        def asked = Engine.cli('reload', '--port', telnetPort as String)
        boolean reloaded = Net.await(10) { reloader.lastReload() != null }
        double after = Media.heardAfterBurst(dir.resolve('after.wav'), "http://127.0.0.1:${port}/radio")

        then:
        asked.code == 0
        reloaded
        Math.abs(after - 660) < 3
        watched*.fileName*.toString().containsAll(['station.liq', 'lib.liq'])
        reloader.lastReload().kept() == ["output.harbor :${port}/radio".toString()]
    }
}
