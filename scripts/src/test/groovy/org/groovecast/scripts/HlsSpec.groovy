package org.groovecast.scripts

import java.nio.file.Files
import java.nio.file.Path
import org.groovecast.host.Station
import org.groovecast.host.script.ScriptError
import spock.lang.Specification
import spock.lang.TempDir

/** Encoded outputs checked by a real ffprobe. */
class HlsSpec extends Specification {
    @TempDir
    Path dir

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

        and: 'ffprobe reads the master and the variant playlists'
        Math.abs((Media.probe(hls.resolve('aac.m3u8'), 'format=duration') as double) - 20.0) < 0.2
        Media.probe(hls.resolve('stream.m3u8'), 'stream=codec_name').readLines().toSet() == ['aac', 'mp3'] as Set
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
