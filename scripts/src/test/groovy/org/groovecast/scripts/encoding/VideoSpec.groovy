package org.groovecast.scripts.encoding

import java.nio.file.Files
import java.nio.file.Path
import org.groovecast.host.script.ScriptError
import org.groovecast.scripts.hls.HlsSpec
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.Media
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/** Video decoded from files, scaled, and encoded again, checked by a real ffprobe. */
@Tag("integration")
class VideoSpec extends Specification {
    @TempDir
    Path dir

    static final Path CLIP = Media.colourClip('red-blue.mkv', 3)

    void render(String script, double seconds, Map<String, String> settings = [:]) {
        Engine.render('video.groovy', script.replace('DIR', dir.toString()).replace('CLIP', CLIP.toString()),
                seconds, settings)
    }

    static boolean red(List<Double> uv) {
        uv[0] < 110 && uv[1] > 200
    }

    static boolean blue(List<Double> uv) {
        uv[0] > 200 && uv[1] < 130
    }

    def "a 720p video+audio file transcodes to HLS with libx264 and aac, segments starting on keyframes"() {
        when:
        render('''
            def s = single('CLIP')
            output.file.hls('DIR/hls', [hd: ffmpeg(format: 'mpegts', audio: [codec: 'aac', b: '128k'],
                    video: [codec: 'libx264', preset: 'ultrafast', g: 50])], s, segmentDuration: 2, segments: 10)
        ''', 6)
        Path hls = dir.resolve('hls')

        def segments = HlsSpec.extinf(hls.resolve('hd.m3u8'))

        then: 'three segments of 2 s, with H.264 720p, AAC and the timed_id3 stream in each'
        segments.size() == 3
        Math.abs(segments.sum() - 6.0) <= 0.04
        // MPEG-TS lists its streams twice (under the program too): compare the first ones.
        (0..2).collect { Media.probe(hls.resolve("hd_${it}.ts"), 'stream=codec_name').readLines() as Set } ==
                [['h264', 'aac', 'timed_id3'] as Set] * 3
        (0..2).collect { Media.probe(hls.resolve("hd_${it}.ts"), 'stream=width,height', 'v:0').readLines().take(2) } ==
                [['1280', '720']] * 3
        (0..2).collect { Media.probe(hls.resolve("hd_${it}.ts"), 'frame=key_frame', 'v:0').readLines()[0] } == ['1'] * 3

        and: 'the master playlist names the video codec and its resolution'
        def master = Files.readString(hls.resolve('stream.m3u8'))
        master.contains('RESOLUTION=1280x720')
        master.contains('CODECS="avc1.42c01f,mp4a.40.2"') // constrained baseline 3.1, read from libx264's SPS

        and: 'the pictures are the file\'s: red first, blue in the last segment'
        Media.chroma(hls.resolve('hd_0.ts')).every { red(it) }
        Media.chroma(hls.resolve('hd_2.ts')).every { blue(it) }
    }

    def "video.frame settings size the pictures; the colour changes on the frame where the file changes it"() {
        when:
        render('''
            settings.video.frame.width = 640
            settings.video.frame.height = 360
            output.file(ffmpeg(format: 'matroska', audio: [codec: 'aac'], video: [codec: 'libx264', preset: 'ultrafast']),
                    'DIR/small.mkv', single('CLIP'))
        ''', 6)
        Path out = dir.resolve('small.mkv')
        def uv = Media.chroma(out)

        then:
        Media.probe(out, 'stream=width,height', 'v:0').readLines() == ['640', '360']
        uv.size() == 150
        and: 'blue from 3 s (picture 75), give or take one picture: audio and video stay in step'
        def firstBlue = uv.findIndexOf { blue(it) }
        Math.abs(firstBlue - 75) <= 1
        uv.take(firstBlue).every { red(it) }
        uv.drop(firstBlue).every { blue(it) }
    }

    def "an audio-only source under a video encoder gives black pictures at the frame rate"() {
        when:
        render('''
            settings.video.frame.rate = 30
            output.file(ffmpeg(format: 'matroska', audio: [codec: 'aac'], video: [codec: 'libx264', preset: 'ultrafast']),
                    'DIR/black.mkv', sine(440))
        ''', 2)
        def uv = Media.chroma(dir.resolve('black.mkv'))

        then:
        uv.size() == 60
        uv.every { Math.abs(it[0] - 128) < 2 && Math.abs(it[1] - 128) < 2 }
    }

    def "ffmpeg.filter runs a video graph on the pictures"() {
        when:
        render('''
            settings.video.frame.width = 320
            settings.video.frame.height = 180
            output.file(ffmpeg(format: 'matroska', audio: [codec: 'aac'], video: [codec: 'libx264', preset: 'ultrafast']),
                    'DIR/neg.mkv', ffmpeg.filter(single('CLIP'), video: 'negate'))
        ''', 6)
        def uv = Media.chroma(dir.resolve('neg.mkv'))

        then: 'red (U 90, V 240) negated is U 165, V 15; blue (U 240, V 110) is U 15, V 145'
        uv.size() == 150
        uv.take(70).every { Math.abs(it[0] - 165) < 6 && Math.abs(it[1] - 15) < 6 }
        uv.drop(80).every { Math.abs(it[0] - 15) < 6 && Math.abs(it[1] - 145) < 6 }
    }

    def "unknown video codecs and options are script errors with the line"() {
        when:
        Engine.load('video.groovy', """
            def s = sine(440)
            output.file(ffmpeg(format: 'matroska', audio: [codec: 'aac'], ${video}), '${dir}/x.mkv', s)
        """.stripIndent(), [:])

        then:
        ScriptError e = thrown()
        e.message.startsWith('video.groovy:3: ')
        e.message.contains(message)

        where:
        video                                           | message
        "video: [codec: 'nonesuch']"                    | "unknown video codec 'nonesuch'"
        "video: [codec: 'libx264', nonsense: 1]"        | 'unknown option nonsense for codec libx264'
        "video: [preset: 'fast']"                       | 'video: needs a codec:'
        "video: [codec: 'libx264', threads: 'many']"    | 'threads must be a whole number'
    }

    def "bad video settings are errors at load, at the line that sets them"() {
        when:
        Engine.load('video.groovy', "output.dummy(sine())\nsettings.video.frame.width = 641\n", [:])

        then:
        ScriptError e = thrown()
        e.message == 'video.groovy:2: settings.video.frame.width must be even, got 641'
    }
}
