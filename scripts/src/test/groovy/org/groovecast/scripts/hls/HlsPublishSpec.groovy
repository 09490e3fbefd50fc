package org.groovecast.scripts.hls

import java.nio.file.Files
import java.nio.file.NoSuchFileException
import java.nio.file.Path
import java.util.concurrent.TimeUnit
import org.groovecast.host.Station
import org.groovecast.host.StationReloader
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.LogCapture
import org.groovecast.scripts.support.Net
import org.groovecast.scripts.support.NginxDav
import org.groovecast.scripts.support.Wav
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/**
 * {@code output.file.hls(..., publish:)} against a real origin: Debian's nginx with its WebDAV
 * module, taking PUT and DELETE. Played back by ffmpeg from the origin's URL; the origin's
 * directory is watched all along for a playlist that names a file it does not hold.
 */
@Tag("integration")
class HlsPublishSpec extends Specification {
    @TempDir
    Path dir

    NginxDav origin
    Station station
    StationReloader reloader

    def cleanup() {
        reloader?.stop()
        station?.stop()
        origin?.delete()
    }

    /**
     * Every 100 ms on a thread of its own: each playlist in the origin's directory is read and every
     * file it names (segments, init sections, the master's media playlists) must be there. A file
     * missing is checked once more against the playlist read again, so that a playlist replaced
     * (and its old segments deleted) while it was being checked is not taken for a fault.
     */
    static final class OriginWatch {
        final Path dir
        final List<String> faults = Collections.synchronizedList([])
        final Set<String> seen = Collections.synchronizedSet(new HashSet<String>())
        volatile int rounds
        private volatile boolean running = true
        private Thread thread

        OriginWatch(Path dir) {
            this.dir = dir
            thread = Thread.start {
                while (running) {
                    check()
                    rounds++
                    Thread.sleep(100)
                }
            }
        }

        static List<String> named(String text) {
            text.readLines().findAll { it && !it.startsWith('#') } +
                    text.readLines().findAll { it.startsWith('#EXT-X-MAP:URI="') }.collect { it.substring(16, it.length() - 1) }
        }

        private static String read(Path p) {
            try {
                Files.readString(p)
            } catch (NoSuchFileException ignored) {
                null
            }
        }

        void check() {
            if (!Files.isDirectory(dir)) return
            List<Path> playlists = Files.list(dir).withCloseable { it.findAll { it.toString().endsWith('.m3u8') }.toList() }
            for (Path p : playlists) {
                String text = read(p)
                if (text == null) continue
                List<String> names = named(text)
                seen.addAll(names.findAll { !it.endsWith('.m3u8') })
                List<String> missing = names.findAll { !Files.exists(dir.resolve(it)) }
                if (missing && read(p) == text) faults << "${p.fileName} names ${missing}, not on the origin:\n${text}".toString()
            }
        }

        void stop() {
            running = false
            thread.join()
        }
    }

    Station start(String script) {
        station = Engine.load('hls-publish.groovy', script.stripIndent(), [:])
        station.start(null)
        station
    }

    static String play(String url, Path out, double seconds = 3) {
        Process p = new ProcessBuilder('ffmpeg', '-nostdin', '-v', 'error', '-y', '-i', url, '-map', '0:a:0', '-t', "${seconds}",
                '-ac', '1', '-bitexact', out.toString()).redirectErrorStream(true).start()
        String errors = p.inputStream.text
        assert p.waitFor(60, TimeUnit.SECONDS): "ffmpeg ${url} did not end"
        assert p.exitValue() == 0: "ffmpeg ${url}: ${errors}"
        errors
    }

    static long mediaSequence(Path playlist) {
        String line = Files.readAllLines(playlist).find { it.startsWith('#EXT-X-MEDIA-SEQUENCE:') }
        line.substring(22) as long
    }

    def "segments and playlists go to a WebDAV origin in a safe order, over one kept-alive connection; ffmpeg plays the tone from it; expired segments are deleted there"() {
        given: 'a private nginx origin taking PUT and DELETE, and a station publishing AAC (MPEG-TS) and Opus (fragmented MP4) to it'
        origin = new NginxDav().start()
        Path local = dir.resolve('hls')
        Path there = origin.live('radio')
        def watch = new OriginWatch(there)
        start("""
            def s = sine(440, amplitude: 0.3)
            output.file.hls('${local}', [aac: aac(bitrate: 64), opus: opus(bitrate: 48)], s, segmentDuration: 1, segments: 3,
                    publish: '${origin.url('radio/')}', publishHeaders: [Authorization: 'Bearer t0ken'])
        """)

        when: 'ffmpeg plays the master and the Opus playlist from the origin, once it has them'
        boolean published = Net.await(15) { Files.exists(there.resolve('stream.m3u8')) }
        Path heard = dir.resolve('heard.wav')
        Path heardOpus = dir.resolve('heard-opus.wav')
        play(origin.url('radio/stream.m3u8'), heard)
        play(origin.url('radio/opus.m3u8'), heardOpus)
        // RFC 8216 §6.2.2: a segment stays 4 s (its second and the 3 s playlist's) after the origin stops naming it
        Net.await(25) { mediaSequence(local.resolve('aac.m3u8')) >= 12 }
        Thread.sleep(1500)
        List<String> onOrigin = Files.list(there).withCloseable { it.collect { it.fileName.toString() }.sort() }
        long sequence = mediaSequence(local.resolve('aac.m3u8'))
        station.stop()
        watch.stop()
        List<Map> requests = origin.requests().findAll { it.method in ['PUT', 'DELETE'] }
        println "origin: ${watch.rounds} checks, ${watch.seen.size()} files seen named; now ${onOrigin}; " +
                "${requests.size()} requests over connections ${requests*.connection.unique()}"

        then: 'the origin got the playlists, and no playlist there ever named a file it did not hold'
        published
        watch.faults.isEmpty()
        watch.rounds >= 50
        watch.seen.findAll { it.startsWith('aac_') }.size() >= 8

        and: 'the tone is heard from the origin, through the master (AAC) and the Opus playlist'
        Math.abs(Wav.read(heard).frequency(0.3, 2.7) - 440) < 5
        Math.abs(Wav.read(heardOpus).frequency(0.3, 2.7) - 440) < 5

        and: 'segments that expired are deleted from the origin: only the last few are there (the window, and those of the last 4 s), with the init section in use'
        !onOrigin.contains('aac_0.ts') && !onOrigin.contains('opus_0.m4s')
        onOrigin.count { it ==~ /aac_\d+\.ts/ } <= 8
        onOrigin.contains('opus_init_0.mp4')
        onOrigin.contains("aac_${sequence}.ts".toString())
        requests.count { it.method == 'DELETE' && it.status == 204 } >= 4

        and: 'every request answered 2xx, carried the headers asked for, over kept-alive HTTP/1.1 connections (a handful for a hundred requests)'
        requests.every { it.status in [201, 204] }
        requests.every { it.authorization == 'Bearer t0ken' }
        requests.size() >= 40
        requests*.connection.unique().size() <= 3

        and: 'the local files are written as without an origin'
        Files.exists(local.resolve('stream.m3u8'))
        Files.readAllLines(local.resolve('aac.m3u8')).last() == '#EXT-X-ENDLIST'

        and: 'the stop sent the last playlists, ended'
        Files.readAllLines(there.resolve('aac.m3u8')).last() == '#EXT-X-ENDLIST'
        Files.readString(there.resolve('aac.m3u8')) == Files.readString(local.resolve('aac.m3u8'))
    }

    def "an origin answering 500, then down: the station stays on air, the failure is logged once, and publishing resumes when it is back"() {
        given: 'a station publishing to a healthy origin'
        origin = new NginxDav().start()
        Path local = dir.resolve('hls')
        Path there = origin.live('radio')
        def logged = new LogCapture('org.groovecast.ffmpeg.hls.HlsPublisher')
        def watch = new OriginWatch(there)
        start("""
            def s = sine(440, amplitude: 0.3)
            output.file.hls('${local}', [aac: aac(bitrate: 64)], s, segmentDuration: 1, segments: 3,
                    publish: '${origin.url('radio/')}')
        """)
        assert Net.await(15) { Files.exists(there.resolve('aac.m3u8')) && mediaSequence(there.resolve('aac.m3u8')) >= 1 }
        String before = Files.readString(there.resolve('aac.m3u8'))
        double maxLag = 0
        def sampler = Thread.startDaemon {
            while (!Thread.currentThread().isInterrupted()) {
                maxLag = Math.max(maxLag, station.clocks()*.getLag().max())
                try {
                    Thread.sleep(50)
                } catch (InterruptedException ignored) {
                    break
                }
            }
        }

        when: 'the origin answers 500 for 4 s, then is down for 3 s'
        long sequenceBefore = mediaSequence(local.resolve('aac.m3u8'))
        origin.failing(true)
        assert Net.await(5) { origin.requests().any { it.status == 500 } }
        Thread.sleep(4000)
        origin.stop()
        origin.failing(false)
        Thread.sleep(3000)
        long sequenceDuring = mediaSequence(local.resolve('aac.m3u8'))
        String duringOutage = Files.readString(there.resolve('aac.m3u8'))

        and: 'it comes back'
        long back = System.nanoTime()
        origin.start()
        boolean caughtUp = Net.await(20) {
            Files.readString(there.resolve('aac.m3u8')) == Files.readString(local.resolve('aac.m3u8'))
        }
        double resumedAfter = (System.nanoTime() - back) / 1e9
        // RFC 8216 §6.2.2: a player that loaded the outage's playlist still finds its segments for 4 s
        List<String> heldBack = OriginWatch.named(duringOutage).findAll { Files.exists(there.resolve(it)) }
        long caught = System.nanoTime()
        boolean deletedLater = Net.await(15) { OriginWatch.named(duringOutage).every { !Files.exists(there.resolve(it)) } }
        double deletedAfter = (System.nanoTime() - caught) / 1e9
        Thread.sleep(1000)
        List<String> onOrigin = Files.list(there).withCloseable { it.collect { it.fileName.toString() }.sort() }
        Path heard = dir.resolve('heard.wav')
        play(origin.url('radio/aac.m3u8'), heard, 2)
        sampler.interrupt()
        sampler.join()
        watch.stop()
        List<String> messages = logged.messages()
        logged.close()
        println "origin outage: resumed ${String.format('%.1f', resumedAfter)} s after it came back; clock lag at most " +
                "${String.format('%.3f', maxLag)} s; on the origin ${onOrigin}; logged ${messages}"

        then: 'the station stayed on air: its clock never waited, the local playlist went on'
        maxLag < 1.0
        sequenceDuring - sequenceBefore >= 5

        and: 'what the origin held during the outage was a playlist of that time, whole'
        duringOutage != Files.readString(local.resolve('aac.m3u8'))
        watch.faults.isEmpty()

        and: 'one failure logged, with the reason, and one recovery'
        messages.count { it.contains('fails') } == 1
        messages.find { it.contains('fails') }.contains('HTTP 500')
        messages.count { it.contains('again after') } == 1

        and: 'publishing resumed: the origin has the latest playlist, the segments expired meanwhile are gone from it (not at once: '
        'a player of the old playlist gets them for 4 s more), and it plays'
        caughtUp
        heldBack == OriginWatch.named(duringOutage)
        deletedLater
        deletedAfter >= 3
        OriginWatch.named(before).every { !onOrigin.contains(it) }
        onOrigin.count { it ==~ /aac_\d+\.ts/ } <= 8
        Math.abs(Wav.read(heard).frequency(0.3, 1.8) - 440) < 5
    }

    def "a reload publishing to the same origin keeps the publisher: the origin's playlist goes on through it, each file sent once, on the same connection"() {
        given: 'a station publishing to an origin, whose script is reloaded with another tone'
        origin = new NginxDav().start()
        Path local = dir.resolve('hls')
        Path there = origin.live('radio')
        Path script = dir.resolve('station.groovy')
        def station = { int tone ->
            """
            def s = sine(${tone}, amplitude: 0.3)
            output.file.hls('${local}', [aac: aac(bitrate: 64)], s, segmentDuration: 1, segments: 3, publish: '${origin.url('radio/')}')
            """.stripIndent()
        }
        Files.writeString(script, station(440))
        reloader = new StationReloader(script, Engine.plugins().functions(), [:])
        def watch = new OriginWatch(there)

        when:
        reloader.start()
        assert Net.await(15) { Files.exists(there.resolve('aac.m3u8')) }
        Thread.sleep(2500)
        Files.writeString(script, station(550))
        boolean reloaded = reloader.reload()
        Thread.sleep(4500)
        boolean caughtUp = Net.await(5) { Files.readString(there.resolve('aac.m3u8')) == Files.readString(local.resolve('aac.m3u8')) }
        String playlist = Files.readString(there.resolve('aac.m3u8'))
        watch.stop()
        List<Map> puts = origin.requests().findAll { it.method == 'PUT' }
        List<String> segments = puts*.uri.findAll { it.endsWith('.ts') }

        then:
        reloaded
        caughtUp
        watch.faults.isEmpty()

        and: 'the playlist on the origin goes on through the reload: one discontinuity (in the window, or counted as it left), no end'
        playlist.readLines().count { it == '#EXT-X-DISCONTINUITY' } + (playlist.contains('#EXT-X-DISCONTINUITY-SEQUENCE:1\n') ? 1 : 0) == 1
        !playlist.contains('#EXT-X-ENDLIST')

        and: 'each segment sent once, all on one connection: the publisher was handed over, not started anew'
        segments.size() >= 6
        segments.unique(false) == segments
        puts*.connection.unique().size() == 1
    }

    def "publish must be an http or https directory URL"() {
        when:
        Engine.load('bad.groovy', "def s = sine()\noutput.file.hls('/tmp/x', [a: aac()], s, publish: 'ftp://origin/live/')\n")

        then:
        org.groovecast.host.script.ScriptError e = thrown()
        e.message == 'bad.groovy:2: output.file.hls(): publish must be an http:// or https:// URL of a directory ' +
                '(without ?query or #fragment), got "ftp://origin/live/"'
    }

    def "publishHeaders the HTTP client cannot send are a script error naming the header, not a publisher that dies on air"() {
        when:
        Engine.load('bad.groovy', "def s = sine()\noutput.file.hls('/tmp/x', [a: aac()], s, publish: 'http://origin/live/', " +
                "publishHeaders: [${header}])\n")

        then:
        org.groovecast.host.script.ScriptError e = thrown()
        e.message.startsWith("bad.groovy:2: output.file.hls(): publishHeaders: header \"${name}\" cannot be sent: ")

        where:
        header                              | name
        "Host: 'cdn.example.org'"           | 'Host'
        "'Content-Length': '1'"             | 'Content-Length'
        "Authorization: 'a\\r\\nX: y'"      | 'Authorization'
    }
}
