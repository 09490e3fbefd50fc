package org.groovecast.scripts.scripting

import java.nio.file.Files
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

/** Every station script shipped in scripts/, Groovy or Liquidsoap, compiles, checks and plays. */
@Tag("integration")
class ShippedScriptsSpec extends Specification {
    @TempDir
    Path dir

    static List<Path> shipped() {
        Files.list(Engine.SCRIPTS).withCloseable { s -> s.filter { it.toString() =~ /\.(groovy|liq)$/ }.sorted().toList() }
    }

    def "scripts/ ships the tone example, the default station, the shared encodes and the AzuraCast-style station"() {
        expect:
        shipped()*.fileName*.toString().containsAll(['radio.groovy', 'tone.groovy', 'shared-encodes.groovy', 'azuracast-style.groovy', 'tone.liq'])
    }

    def "the default station serves its stream at /radio with no other server, titles inline"() {
        given:
        int port = Net.freePort()
        Station station = Station.load(Engine.SCRIPTS.resolve('radio.groovy'), Engine.plugins().functions(), [:],
                [RADIO_PORT: port.toString()])
        station.start(null)

        when: 'a listener asking for ICY metadata reads 6 s'
        def s = new Socket('127.0.0.1', port)
        s.soTimeout = 5000
        s.outputStream.write("GET /radio HTTP/1.0\r\nIcy-MetaData: 1\r\n\r\n".bytes)
        def bytes = new ByteArrayOutputStream()
        byte[] buf = new byte[8192]
        long end = System.nanoTime() + 6_000_000_000L
        while (System.nanoTime() < end) bytes.write(buf, 0, s.inputStream.read(buf))
        s.close()
        String text = bytes.toString('ISO-8859-1')

        then:
        text.startsWith('HTTP/1.0 200 OK')
        text.contains('Content-Type: audio/mpeg')
        text.contains("StreamTitle='Groovecast - ")
        bytes.size() > 5 * 16000 // 128 kbit/s for about 6 s, minus the start

        and: 'its status page and Icecast-style status'
        new URL("http://127.0.0.1:${port}/").text.contains('<script src="status.js">')
        new URL("http://127.0.0.1:${port}/status-json.xsl").text.contains("\"listenurl\":\"http://127.0.0.1:${port}/radio\"")

        cleanup:
        station?.stop()
    }

    def "#name renders 5 s offline without an error"() {
        when:
        Path out = dir.resolve(name + '.wav')
        Station station = Station.load(script, Engine.plugins().functions(), ['clock.sync': 'none'],
                [OUT: out.toString(), RADIO_OUT: out.toString(), RADIO_PORT: Net.freePort().toString(), OUT_DIR: dir.toString(), STATION_DIR: dir.toString(),
                 MUSIC: Media.mp3('shipped.mp3', [440], 2).toString()])
        station.start(java.time.Duration.ofSeconds(5))

        then: 'it stops by itself after 5 s of stream, having written what it writes'
        station.awaitStopped(java.time.Duration.ofSeconds(60))
        !Files.exists(out) || Wav.read(out).seconds == 5.0d
        Files.list(dir).withCloseable { it.count() } > 0

        where:
        script << shipped()
        name = script.fileName.toString()
    }
}
