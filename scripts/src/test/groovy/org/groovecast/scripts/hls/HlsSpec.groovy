package org.groovecast.scripts.hls

import java.nio.file.Files
import java.nio.file.Path
import org.groovecast.host.Station
import org.groovecast.host.StationReloader
import org.groovecast.host.script.ScriptError
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.HlsChecker
import org.groovecast.scripts.support.Media
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/** Encoded outputs checked by a real ffprobe, live HLS playlists by a strict RFC 8216 checker. */
@Tag("integration")
class HlsSpec extends Specification {
    @TempDir
    Path dir

    StationReloader reloader

    def cleanup() {
        reloader?.stop()
    }

    /** Watches a playlist on a thread of its own, every 20 ms; the closure returned stops it and throws what it found. */
    static Closure watch(HlsChecker checker, Path playlist) {
        Throwable[] failure = new Throwable[1]
        boolean[] running = [true] as boolean[]
        Thread t = Thread.start {
            try {
                while (running[0]) {
                    checker.poll(playlist)
                    Thread.sleep(20)
                }
            } catch (Throwable e) {
                failure[0] = e
            }
        }
        return { ->
            running[0] = false
            t.join()
            if (failure[0] != null) throw failure[0]
        }
    }

    Station render(String script, double seconds) {
        Engine.render('hls.groovy', script.replace('DIR', dir.toString()), seconds)
    }

    static List<Double> extinf(Path playlist) {
        Files.readAllLines(playlist).findAll { it.startsWith('#EXTINF:') }.collect { it.substring(8, it.indexOf(',')) as double }
    }

    def "HLS: 10 segments of 2 s add up to 20 s within one frame, and ffprobe reads every playlist"() {
        when:
        render('''
            def s = sine(440, amplitude: 0.3)
            output.file.hls('DIR/hls', [aac: aac(bitrate: 96), mp3: mp3(bitrate: 128)], s, segmentDuration: 2, segments: 20)
        ''', 20)
        Path hls = dir.resolve('hls')

        then: 'a master playlist naming both renditions'
        def master = Files.readAllLines(hls.resolve('stream.m3u8'))
        master[0] == '#EXTM3U'
        master.findAll { it.endsWith('.m3u8') } == ['aac.m3u8', 'mp3.m3u8']

        and: 'each rendition has 10 segments of about 2 s that add up to 20 s within one frame'
        ['aac', 'mp3'].every { name ->
            def d = extinf(hls.resolve("${name}.m3u8"))
            d.size() == 10 && Math.abs(d.sum() - 20.0) <= 0.02 && d.every { Math.abs(it - 2.0) < 0.05 }
        }
        Files.readAllLines(hls.resolve('aac.m3u8')).last() == '#EXT-X-ENDLIST'

        and: 'ffprobe reads the master and the variant playlists (each MPEG-TS rendition with its timed_id3 stream)'
        Math.abs((Media.probe(hls.resolve('aac.m3u8'), 'format=duration') as double) - 20.0) < 0.2
        Media.probe(hls.resolve('stream.m3u8'), 'stream=codec_name').readLines().toSet() == ['aac', 'mp3', 'timed_id3'] as Set
        Media.probe(hls.resolve('mp3_3.ts'), 'stream=codec_name').readLines()[0] == 'mp3'
    }

    def "a source that drops and returns adds one discontinuity"() {
        when:
        render('''
            def frames = 0
            def tone = sine(440, amplitude: 0.3)
            tone.onFrame { -> frames++ }
            def s = switchOn(trackSensitive: false, [[{ -> frames < 150 || frames >= 250 }, tone]])
            output.file.hls('DIR/hls', [aac: aac()], s, segmentDuration: 2, segments: 20, fallible: true)
        ''', 10)
        def lines = Files.readAllLines(dir.resolve('hls/aac.m3u8'))

        then:
        lines.count { it == '#EXT-X-DISCONTINUITY' } == 1
        Math.abs(extinf(dir.resolve('hls/aac.m3u8')).sum() - 8.0) <= 0.04
    }

    def "through source drops, every version of a live playlist is strict RFC 8216 and the discontinuity sequence counts the tags that leave"() {
        given: 'a fallible source, 3 s of sound then 1.5 s of nothing, again and again; 1 s segments, 3 kept'
        Station st = Engine.load('hls-drops.groovy', """
            def frames = 0
            def tone = sine(440, amplitude: 0.3)
            tone.onFrame { -> frames++ }
            def s = switchOn(trackSensitive: false, [[{ -> frames % 225 < 150 }, tone]])
            output.file.hls('${dir}/hls', [a: aac(bitrate: 64)], s, segmentDuration: 1, segments: 3, fallible: true)
        """)
        def checker = new HlsChecker(dir.resolve('hls'))
        Path playlist = dir.resolve('hls/a.m3u8')

        when:
        st.start(null)
        def stop = watch(checker, playlist)
        Thread.sleep(17000)
        stop()
        st.stop()
        def last = checker.observe(Files.readString(playlist), false)
        println "drops: ${checker.versions.size()} versions, media sequences ${checker.mediaSequences()}, " +
                "discontinuity sequences ${checker.discontinuitySequences()}, target duration ${last.targetDuration}"

        then: 'every version seen passed the checker, and there were many'
        checker.versions.size() >= 10

        and: 'a discontinuity after each of the three drops; the discontinuity sequence went up by one as each left the window'
        checker.segments().values().count { it.discontinuity } >= 3
        checker.discontinuitySequences() == (0L..checker.discontinuitySequences().last()).toList()
        checker.discontinuitySequences().last() >= 2

        and: 'the target duration is that of 1 s segments, the stream ends after the stop only'
        last.targetDuration == 1
        last.ended
    }

    def "across reloads the playlist goes on: numbers, discontinuity sequence and target duration, strict RFC 8216 in every version"() {
        given: '1 s segments, 3 kept'
        Path script = dir.resolve('station.groovy')
        def station = { int tone, double seconds ->
            """
            def s = sine(${tone}, amplitude: 0.3)
            output.file.hls('${dir}/hls', [a: aac(bitrate: 64)], s, segmentDuration: ${seconds}, segments: 3)
            """.stripIndent()
        }
        Files.writeString(script, station(440, 1))
        reloader = new StationReloader(script, Engine.plugins().functions(), [:])
        def checker = new HlsChecker(dir.resolve('hls'))
        Path playlist = dir.resolve('hls/a.m3u8')

        when: 'two reloads; the second asks for 3 s segments, which the running playlist cannot take'
        reloader.start()
        def stop = watch(checker, playlist)
        Thread.sleep(3500)
        Files.writeString(script, station(550, 1))
        boolean first = reloader.reload()
        Thread.sleep(4500)
        Files.writeString(script, station(660, 3))
        boolean second = reloader.reload()
        Thread.sleep(6500)
        stop()
        reloader.stop()
        def last = checker.observe(Files.readString(playlist), false)
        def all = checker.segments().values() as List
        def afterSecond = all.drop(all.findLastIndexOf { it.discontinuity } + 1)
        println "reloads: ${checker.versions.size()} versions, media sequences ${checker.mediaSequences()}, " +
                "discontinuity sequences ${checker.discontinuitySequences()}, target duration ${last.targetDuration}, " +
                "segments after the second reload ${afterSecond*.duration}"

        then:
        first
        second

        and: 'one sequence of numbers, a discontinuity at each reload, the discontinuity sequence carried over and counting'
        all*.sequence == (all[0].sequence..all[-1].sequence).toList()
        all.count { it.discontinuity } == 2
        checker.discontinuitySequences() == [0L, 1L, 2L]

        and: 'the target duration stayed 1 s, which may not change: segments of 1 s, not 3 s'
        checker.versions*.targetDuration.unique() == [1]
        afterSecond.size() >= 4
        afterSecond.dropRight(1).every { Math.abs(it.duration - 1.0) < 0.03 }
        last.ended
    }

    def "renditions in opus, flac and vorbis are fragmented MP4; the master names every codec as players expect"() {
        when:
        render('''
            def s = sine(440, amplitude: 0.3)
            output.file.hls('DIR/hls', [aac: aac(bitrate: 96), mp3: mp3(bitrate: 128), opus: opus(bitrate: 64),
                    flac: flac(), vorbis: vorbis()], s, segmentDuration: 2, segments: 10)
        ''', 6)
        Path hls = dir.resolve('hls')
        def master = Files.readAllLines(hls.resolve('stream.m3u8'))
        Map<String, String> codecs = [:]
        master.eachWithIndex { line, i -> if (line.startsWith('#EXT-X-STREAM-INF:')) codecs[master[i + 1]] = (line =~ /CODECS="([^"]+)"/)[0][1] }
        def playlists = ['aac', 'mp3', 'opus', 'flac', 'vorbis'].collectEntries { [it, new HlsChecker(hls).observe(Files.readString(hls.resolve("${it}.m3u8")), false)] }

        then: 'CODECS per Apple\'s HLS authoring specification'
        codecs == ['aac.m3u8': 'mp4a.40.2', 'mp3.m3u8': 'mp4a.40.34', 'opus.m3u8': 'Opus', 'flac.m3u8': 'fLaC', 'vorbis.m3u8': 'vorbis']

        and: 'AAC and MP3 in MPEG-TS; Opus, FLAC and Vorbis in fragmented MP4 after an init section (EXT-X-MAP, version 6)'
        ['aac', 'mp3'].every { playlists[it].version == 3 && playlists[it].segments.every { s -> s.uri.endsWith('.ts') && s.map == null } }
        ['opus', 'flac', 'vorbis'].every { playlists[it].version == 6 && playlists[it].segments.every { s -> s.uri.endsWith('.m4s') && s.map == "${it}_init_0.mp4" } }

        and: 'ffprobe finds the codec in the segments, and 6 s of audio through each playlist'
        ['aac': 'aac', 'mp3': 'mp3', 'opus': 'opus', 'flac': 'flac', 'vorbis': 'vorbis'].every { name, codec ->
            Media.probe(hls.resolve("${name}.m3u8"), 'stream=codec_name').readLines()[0] == codec
        }
        ['opus', 'flac', 'vorbis'].every { name ->
            Path joined = dir.resolve("${name}-joined.mp4")
            def bytes = new ByteArrayOutputStream()
            bytes.write(Files.readAllBytes(hls.resolve("${name}_init_0.mp4")))
            bytes.write(Files.readAllBytes(hls.resolve("${name}_1.m4s")))
            Files.write(joined, bytes.toByteArray())
            Media.probe(joined, 'stream=codec_name') == name
        }
        ['aac', 'mp3', 'opus', 'flac', 'vorbis'].every { name ->
            Math.abs((Media.probe(hls.resolve("${name}.m3u8"), 'format=duration') as double) - 6.0) < 0.2
        }
    }

    def "encoders write files ffprobe recognises, and a misspelt codec is a located error"() {
        when:
        render('''
            def s = sine(440, amplitude: 0.3)
            output.file(mp3(bitrate: 128), 'DIR/a.mp3', s)
            output.file(opus(), 'DIR/a.opus', sine(660))
            output.file(ffmpeg(format: 'adts', audio: [codec: 'aac', b: '64k']), 'DIR/a.aac', sine(880))
        ''', 4)

        then:
        Media.probe(dir.resolve('a.mp3'), 'stream=codec_name') == 'mp3'
        Media.probe(dir.resolve('a.opus'), 'stream=codec_name') == 'opus'
        Media.probe(dir.resolve('a.aac'), 'stream=codec_name') == 'aac'
        Math.abs((Media.probe(dir.resolve('a.mp3'), 'format=duration') as double) - 4.0) < 0.1

        when:
        Engine.load('codec.groovy', "def s = sine()\n\noutput.file(ffmpeg(format: 'mp3', audio: [codec: 'libmp4lame']), 'x.mp3', s)\n")

        then:
        ScriptError e = thrown()
        e.message == "codec.groovy:3: ffmpeg(): unknown audio codec 'libmp4lame'"
    }
}
