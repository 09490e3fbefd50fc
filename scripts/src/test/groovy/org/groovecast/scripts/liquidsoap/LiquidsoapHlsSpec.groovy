package org.groovecast.scripts.liquidsoap

import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit
import org.groovecast.host.Station
import org.groovecast.scripts.hls.HlsSpec
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.HlsChecker
import org.groovecast.scripts.support.Net
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/**
 * output.file.hls from a .liq station in AzuraCast's shape: the segment names its segment_name
 * function gives, on disk and in the playlist, and persist_at carrying the media sequence across a
 * stop and a new start, which a player polling all along (the strict RFC 8216 checker) and ffprobe
 * follow.
 */
@Tag("integration")
class LiquidsoapHlsSpec extends Specification {
    @TempDir
    Path dir

    Station station

    def cleanup() {
        station?.stop()
    }

    private String script() {
        """\
        def hls_segment_name(seg_meta) =
            seg_timestamp = int_of_float(time())
            seg_duration = 1
            "#{seg_meta.stream_name}_#{seg_duration}_#{seg_timestamp}_#{seg_meta.position}.#{seg_meta.extname}"
        end
        radio = sine(amplitude=0.3, 440.)
        hls_streams = [("aac_lofi", %ffmpeg(format="mpegts", %audio(codec="aac", samplerate=44100, channels=2, b="64k")))]
        output.file.hls(playlist="live.m3u8",
            segment_duration=1.0,
            segments=3,
            segments_overhead=2,
            segment_name=hls_segment_name,
            persist_at="${dir}/config/hls.config",
            temp_dir="${dir}/tmp",
            "${dir}/hls",
            hls_streams,
            radio
        )
        """.stripIndent()
    }

    private static final def NAME = ~/^aac_lofi_1_(\d+)_(\d+)\.ts$/

    /** What ffprobe reads of the stream behind {@code playlist}: its audio codecs, each once. */
    private static List<String> probe(Path playlist) {
        Process p = new ProcessBuilder('ffprobe', '-v', 'error', '-select_streams', 'a:0', '-show_entries',
                'stream=codec_name', '-of', 'csv=p=0', playlist.toString()).redirectErrorStream(true).start()
        String out = p.inputStream.text.strip()
        assert p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0: "ffprobe ${playlist}: ${out}"
        out.readLines()*.strip().findAll { it }.unique()
    }

    def "segment_name names the segments on disk and in the playlist; persist_at carries the media sequence across a restart"() {
        given:
        Path hls = dir.resolve('hls')
        Path playlist = hls.resolve('aac_lofi.m3u8')
        Path state = dir.resolve('config/hls.config')
        def checker = new HlsChecker(hls)
        long startedAt = System.currentTimeMillis().intdiv(1000)

        when: 'the station runs until 5 segments were listed'
        station = Engine.load('azuracast-hls.liq', script())
        station.start(null)
        def stop = HlsSpec.watch(checker, playlist)
        Net.await(20) { checker.segments().size() >= 5 }
        List<String> master = probe(hls.resolve('live.m3u8'))
        station.stop()
        station = null
        Thread.sleep(300)
        def first = checker.segments()
        long last = first.keySet().last()

        then: 'each segment is named by the function: its stream, its position (the media sequence number plus one), a time of this run'
        first.values().every { s ->
            def m = s.uri =~ NAME
            m.matches() && (m.group(2) as long) == s.sequence + 1 &&
                    (m.group(1) as long) >= startedAt && (m.group(1) as long) <= startedAt + 60
        }
        Files.list(hls).withCloseable { files ->
            files.map { it.fileName.toString() }.filter { it.endsWith('.ts') }.allMatch { it ==~ NAME }
        }
        Files.list(dir.resolve('tmp')).withCloseable { it.count() } == 0

        and: 'the master playlist is the one asked for, and ffprobe reads the stream through it'
        master == ['aac']
        Files.exists(hls.resolve('live.m3u8'))

        and: 'the state is saved, the playlist is left open for players (no end)'
        Files.exists(state)
        !Files.readString(playlist).contains('#EXT-X-ENDLIST')

        when: 'the same script starts again, as a new station, while the player keeps polling'
        station = Engine.load('azuracast-hls.liq', script())
        station.start(null)
        boolean stateReadAndGone = !Files.exists(state)
        Net.await(20) { checker.segments().keySet().last() >= last + 3 }
        List<String> after = probe(playlist)
        stop()
        def all = checker.segments()
        println "hls restart: media sequences ${checker.mediaSequences()}, segments ${all.values()*.uri}"

        then: 'the media sequence goes on from where it stopped, with no gap and no number used twice'
        stateReadAndGone
        all.keySet().toList() == (all.keySet().first()..all.keySet().last()).toList()
        checker.mediaSequences() == checker.mediaSequences().sort()

        and: 'the first segment of the new run follows a discontinuity and is named with the next position'
        all[last + 1].discontinuity
        (all[last + 1].uri =~ NAME)[0][2] as long == last + 2

        and: 'every version the player saw was strict RFC 8216 against the one before, across the restart; ffprobe reads it'
        checker.versions.size() >= 8
        after == ['aac']
    }
}
