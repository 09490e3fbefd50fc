package org.groovecast.scripts.liquidsoap

import java.nio.ByteBuffer
import java.nio.ByteOrder
import java.nio.charset.StandardCharsets
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit
import org.groovecast.host.Station
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.Icecast
import org.groovecast.scripts.support.Net
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/**
 * Ogg Vorbis mounts as AzuraCast configures them, %vorbis and %ogg(%vorbis), to a real icecast2:
 * each track begins a new logical stream (chained Ogg) whose comment header carries its title, which
 * is how Icecast and Ogg players learn titles. Vorbis is the system's libvorbis (libvorbisenc2, installed
 * wherever the specs run).
 */
@Tag("integration")
class LiquidsoapOggSpec extends Specification {
    @TempDir
    Path dir

    Icecast icecast
    Station station

    def cleanup() {
        station?.stop()
        icecast?.stop()
    }

    /** The Ogg pages of {@code bytes} that begin a logical stream: their serial numbers, in order. */
    static List<Long> beginnings(byte[] bytes) {
        List<Long> serials = []
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN)
        for (int i = 0; i + 27 <= bytes.length; i++) {
            if (bytes[i] == (byte) 'O' && bytes[i + 1] == (byte) 'g' && bytes[i + 2] == (byte) 'g' &&
                    bytes[i + 3] == (byte) 'S' && bytes[i + 4] == 0 && (bytes[i + 5] & 0x02) != 0) {
                serials << (b.getInt(i + 14) & 0xffffffffL)
            }
        }
        serials
    }

    /** What icecast says a mount plays: {@code artist - title}, from its (flat) source object. */
    String playing(String mount) {
        String status = icecast.status() ?: ''
        def source = (status =~ /\{[^{}]*"listenurl":"[^"]*${java.util.regex.Pattern.quote(mount)}"[^{}]*\}/)
        if (!source.find()) return null
        String s = source.group()
        def field = { String name -> def m = s =~ /"${name}":"([^"]*)"/; m.find() ? m.group(1) : null }
        "${field('artist')} - ${field('title')}".toString()
    }

    def "%vorbis and %ogg(%vorbis): each title starts a new logical stream carrying it, and icecast shows it"() {
        given:
        icecast = new Icecast().start()
        Path heard = dir.resolve('heard.ogg')
        station = Engine.load('ogg.liq', """\
            s = sine(amplitude=0.3, 440.)
            # Each title when the test says so (a file appears), while the listener listens.
            def title(name) =
              sent = ref(false)
              fun () -> begin
                if not sent() and file.exists("${dir}/#{name}") then
                  sent := true
                  s.insert_metadata([("title", name), ("artist", "Groovecast")])
                end
                0.1
              end
            end
            thread.run.recurrent(delay=0.1, title("First"))
            thread.run.recurrent(delay=0.1, title("Second"))
            output.icecast(%vorbis, host="127.0.0.1", port=${icecast.port}, password="${Icecast.SOURCE_PASSWORD}", mount="a.ogg", s)
            output.icecast(%ogg(%vorbis), host="127.0.0.1", port=${icecast.port}, password="${Icecast.SOURCE_PASSWORD}", mount="b.ogg", s)
            """.stripIndent())

        when: 'a listener records /a.ogg from the start, across two titles'
        station.start(null)
        Net.await(10) { icecast.hasMount('/a.ogg') && icecast.hasMount('/b.ogg') }
        Process curl = new ProcessBuilder('curl', '-s', '--max-time', '12', '-o', heard.toString(),
                "http://127.0.0.1:${icecast.port}/a.ogg".toString()).start()
        boolean listening = Net.await(8) { Files.exists(heard) && Files.size(heard) > 4096 }
        Files.createFile(dir.resolve('First'))
        boolean first = Net.await(10) { playing('/a.ogg') == 'Groovecast - First' }
        Thread.sleep(1000)
        Files.createFile(dir.resolve('Second'))
        curl.waitFor(20, TimeUnit.SECONDS)
        assert listening && Files.exists(heard): "nothing heard; icecast2: ${icecast.status() ? 'up' : 'down'}, " +
                "its error log: ${Files.readString(icecast.dir.resolve('log/error.log')).readLines().takeRight(15)}"
        byte[] bytes = Files.readAllBytes(heard)
        String text = new String(bytes, StandardCharsets.ISO_8859_1)

        then: 'icecast read both titles from the streams themselves, on both mounts'
        first
        Net.await(5) { playing('/a.ogg') == 'Groovecast - Second' && playing('/b.ogg') == 'Groovecast - Second' }

        and: 'the recording holds a new logical stream (another serial) whose comment header names the second title'
        def serials = beginnings(bytes)
        serials.size() == 3 // the untitled start, then one per title
        serials.unique(false).size() == serials.size()
        text.toLowerCase().contains('title=second')
        text.toLowerCase().indexOf('title=second') > text.toLowerCase().indexOf('title=first')

        and: 'ffprobe reads it as Vorbis'
        probe(heard) == 'vorbis'

        and: "encoded by the system's libvorbis: its identification header gives the nominal rate of %vorbis's quality 0.3 (FFmpeg's native encoder gives none)"
        probe(heard, 'bit_rate') == '112000'
    }

    private static String probe(Path file, String entry = 'codec_name') {
        Process p = new ProcessBuilder('ffprobe', '-v', 'error', '-select_streams', 'a:0', '-show_entries',
                "stream=${entry}".toString(), '-of', 'csv=p=0', file.toString()).redirectErrorStream(true).start()
        String out = p.inputStream.text.strip()
        assert p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0: "ffprobe ${file}: ${out}"
        out.readLines().first()
    }
}
