package org.groovecast.scripts.harbor

import ch.qos.logback.classic.Level
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit
import org.groovecast.host.Station
import org.groovecast.host.StationReloader
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.LogCapture
import org.groovecast.scripts.support.Net
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/**
 * What players, directories and web pages get from an output.harbor mount besides the stream, asked
 * by curl and raw sockets of a running station: HEAD, CORS and icy headers, .m3u and .pls, and the
 * listener's agent in the log.
 */
@Tag("integration")
class ListenerConveniencesSpec extends Specification {
    @TempDir
    Path dir

    int port = Net.freePort()
    Station station
    StationReloader reloader

    def cleanup() {
        station?.stop()
        reloader?.stop()
    }

    Station start(String script) {
        station = Engine.load('station.groovy', script.replace('PORT', port.toString()))
        station.start(null)
        station
    }

    static List<String> head(String answer) {
        answer.substring(0, answer.indexOf('\r\n\r\n')).split('\r\n') as List
    }

    static String body(String answer) {
        answer.substring(answer.indexOf('\r\n\r\n') + 4)
    }

    static Map curl(String... args) {
        Process p = new ProcessBuilder(['curl', '-sS', '--max-time', '5'] + (args as List)).redirectErrorStream(true).start()
        assert p.waitFor(15, TimeUnit.SECONDS)
        [code: p.exitValue(), out: p.inputStream.text]
    }

    def "HEAD answers a listener's headers, CORS and icy-br and icy-pub included, with no body and no listener"() {
        given:
        start('''
            output.harbor(mp3(bitrate: 128), sine(), mount: 'radio', port: PORT, name: 'Test FM', genre: 'Tones', public: true)
            output.harbor(flac(), sine(), mount: 'lossless', port: PORT)
        ''')
        def harbor = station.network().harbors()[0]

        when: 'curl -I, as a player or a directory probes a stream'
        def probed = curl('-I', "http://127.0.0.1:${port}/radio".toString())
        def lines = probed.out.readLines()

        then:
        probed.code == 0
        lines[0] == 'HTTP/1.0 200 OK'
        ['Content-Type: audio/mpeg', 'icy-name: Test FM', 'icy-genre: Tones', 'icy-br: 128', 'icy-pub: 1',
         'Access-Control-Allow-Origin: *'].every { lines.contains(it) }
        harbor.listeners('/radio') == 0

        when: 'a raw HEAD, then a listener'
        long t0 = System.nanoTime()
        String raw = Net.raw(port, "HEAD /radio HTTP/1.1\r\nHost: x\r\n\r\n")
        double closedAfter = (System.nanoTime() - t0) / 1e9
        String listened = Net.raw(port, "GET /radio HTTP/1.1\r\nHost: x\r\n\r\n", 700)

        then: 'the head alone, the connection closed at once, and the head is the listener\'s'
        raw.endsWith('\r\n\r\n')
        closedAfter < 2
        head(listened) == head(raw)
        body(listened).length() > 0

        and: 'a lossless mount has no nominal bit rate, and is not public by default'
        def lossless = head(Net.raw(port, "HEAD /lossless HTTP/1.0\r\n\r\n"))
        lossless.contains('Content-Type: audio/flac')
        lossless.contains('icy-pub: 0')
        !lossless.any { it.startsWith('icy-br:') }
    }

    def "every mount has an .m3u and a .pls pointing at it as the client reached it"() {
        given:
        start('''
            output.harbor(mp3(), sine(), mount: 'radio', port: PORT, name: 'Test FM')
            harbor.http.register('/mine.m3u', port: PORT) { req -> "the script's own" }
            output.harbor(mp3(), sine(), mount: 'mine', port: PORT)
        ''')

        when:
        String m3u = Net.raw(port, "GET /radio.m3u HTTP/1.1\r\nHost: radio.example.org:8443\r\nConnection: close\r\n\r\n")
        String pls = Net.raw(port, "GET /radio.pls HTTP/1.0\r\n\r\n")
        def viaCurl = curl("http://127.0.0.1:${port}/radio.m3u".toString())

        then: 'with the Host header as sent'
        Net.status(m3u) == 200
        head(m3u).contains('Content-Type: audio/x-mpegurl')
        head(m3u).contains('Access-Control-Allow-Origin: *')
        body(m3u) == '#EXTM3U\n#EXTINF:-1,Test FM\nhttp://radio.example.org:8443/radio\n'

        and: 'without one, the address and port the connection reached'
        head(pls).contains('Content-Type: audio/x-scpls')
        head(pls).contains('Access-Control-Allow-Origin: *')
        body(pls) == "[playlist]\nFile1=http://127.0.0.1:${port}/radio\nTitle1=Test FM\nLength1=-1\nNumberOfEntries=1\nVersion=2\n"

        and: 'curl sends its Host'
        viaCurl.out == "#EXTM3U\n#EXTINF:-1,Test FM\nhttp://127.0.0.1:${port}/radio\n"

        and: "a script's route of that path is the script's"
        body(Net.raw(port, "GET /mine.m3u HTTP/1.1\r\nConnection: close\r\n\r\n")) == "the script's own"
        Net.status(Net.raw(port, "GET /nowhere.pls HTTP/1.1\r\nConnection: close\r\n\r\n")) == 404
    }

    def "a listener's address and agent are logged once, in its connected line"() {
        given:
        def logged = new LogCapture('org.groovecast.net.harbor.HarborMount', Level.INFO)
        start('''
            output.harbor(mp3(), sine(), mount: 'radio', port: PORT)
        ''')

        when:
        curl('-o', '/dev/null', '-A', 'mpv 0.35', '--max-time', '1', "http://127.0.0.1:${port}/radio".toString())
        def connected = { logged.messages().findAll { it.contains(' connected') } }
        Net.await(5) { connected().size() == 1 }

        then:
        connected().size() == 1
        connected()[0] ==~ /mount \/radio: listener 127\.0\.0\.1:\d+ connected, agent "mpv 0\.35" \(1 now\)/

        cleanup:
        logged.close()
    }

    def "a reload that keeps the mount gives new listeners and probes its new name and bit rate"() {
        given:
        Path script = dir.resolve('radio.groovy')
        Files.writeString(script, "output.harbor(mp3(bitrate: 128), sine(), mount: 'radio', port: ${port}, name: 'Old FM')")
        reloader = new StationReloader(script, Engine.plugins().functions(), [:])
        reloader.start()
        def before = head(Net.raw(port, "HEAD /radio HTTP/1.0\r\n\r\n"))

        when:
        Files.writeString(script, "output.harbor(mp3(bitrate: 192), sine(), mount: 'radio', port: ${port}, name: 'New FM', public: true)")
        boolean reloaded = reloader.reload()
        def after = head(Net.raw(port, "HEAD /radio HTTP/1.0\r\n\r\n"))

        then:
        before.containsAll(['icy-name: Old FM', 'icy-br: 128', 'icy-pub: 0'])
        reloaded
        reloader.lastReload().kept().any { it.contains("output.harbor :${port}/radio") }
        after.containsAll(['icy-name: New FM', 'icy-br: 192', 'icy-pub: 1'])
    }
}
