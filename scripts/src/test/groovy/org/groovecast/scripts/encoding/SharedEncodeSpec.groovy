package org.groovecast.scripts.encoding

import java.nio.file.Files
import java.nio.file.Path
import java.time.Duration
import org.groovecast.host.Station
import org.groovecast.scripts.hls.HlsSpec
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.Media
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

@Tag("integration")
class SharedEncodeSpec extends Specification {
    @TempDir
    Path dir

    def "shared-encodes.groovy: one mp3 in, three encodes, HLS with two renditions plus three files, all valid"() {
        given:
        Path music = Media.mp3('shared-in.mp3', [440, 660], 5, 'Shared')
        Station station = Station.load(Engine.SCRIPTS.resolve('shared-encodes.groovy'), Engine.plugins().functions(),
                ['clock.sync': 'none'], [MUSIC: music.toString(), OUT_DIR: dir.toString()])

        expect: 'three encodes in the graph for four outputs (five destinations)'
        station.graph().sources().count { it.kind() == 'ffmpeg.encode.audio' } == 3
        station.graph().outputs().size() == 4

        when: '30 s as fast as possible'
        station.start(Duration.ofSeconds(30))
        assert station.awaitStopped(Duration.ofSeconds(120))

        then: 'the three files are what ffprobe expects, 30 s each'
        Media.probe(dir.resolve('lo.aac'), 'stream=codec_name') == 'aac'
        Media.probe(dir.resolve('hi.aac'), 'stream=codec_name') == 'aac'
        Media.probe(dir.resolve('music.mp3'), 'stream=codec_name') == 'mp3'
        Math.abs(Media.decodedSeconds(dir.resolve('lo.aac')) - 30.0) < 0.1
        Math.abs(Media.decodedSeconds(dir.resolve('hi.aac')) - 30.0) < 0.1
        Math.abs(Media.decodedSeconds(dir.resolve('music.mp3'), 1152) - 30.0) < 0.1
        Math.abs(Files.size(dir.resolve('lo.aac')) * 8 / 30 / 1000 - 48) < 10
        Math.abs(Files.size(dir.resolve('hi.aac')) * 8 / 30 / 1000 - 128) < 20
        Math.abs(Files.size(dir.resolve('music.mp3')) * 8 / 30 / 1000 - 128) < 10

        and: 'HLS: a master playlist with both renditions, each 30 s in 2 s segments'
        Files.readAllLines(dir.resolve('hls/stream.m3u8')).findAll { it.endsWith('.m3u8') } == ['lo.m3u8', 'hi.m3u8']
        ['lo', 'hi'].every { r ->
            def d = HlsSpec.extinf(dir.resolve("hls/${r}.m3u8"))
            d.size() == 10 && Math.abs(d.sum() - 20.0) <= 0.05  // the last 10 of 15 segments
        }
        Math.abs((Media.probe(dir.resolve('hls/hi.m3u8'), 'format=duration') as double) - 20.0) < 0.3
        Media.probe(dir.resolve('hls/stream.m3u8'), 'stream=codec_name').readLines().toSet() == ['aac', 'timed_id3'] as Set
    }
}
