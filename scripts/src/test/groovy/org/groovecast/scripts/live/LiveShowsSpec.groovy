package org.groovecast.scripts.live

import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit
import org.groovecast.host.Station
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.Media
import org.groovecast.scripts.support.Net
import org.groovecast.scripts.support.Wav
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir
import spock.lang.Unroll

/** Live shows in real time, ffmpeg as the DJ's Icecast source client: transitions, crossfades after a switch, recordings. */
@Tag("integration")
class LiveShowsSpec extends Specification {
    @TempDir
    Path dir

    int port = Net.freePort()
    Station station

    def cleanup() {
        station?.stop()
    }

    /** The frame counts the script logged with "select <id> at <frames>", in order. */
    List<Integer> selections() {
        station.scriptLog().recent().findAll { it.startsWith('info: select ') }.collect { (it =~ / at (\d+)$/)[0][1] as int }
    }

    def "fallback transitions: the music fades out under the DJ fading in, and the music fades back in after the show"() {
        given: 'linear 2 s transitions both ways; the music at 0.125'
        station = Engine.load('live.groovy', """
            def frames = 0
            def live = input.harbor('live', port: ${port}, password: 'secret', buffer: 1)
            def music = sine(440, amplitude: 0.125)
            music.onFrame { -> frames++ }
            def xfade = { from, to ->
                add(normalize: false, [fade.out(from, duration: 2, type: 'lin'), fade.in(to, duration: 2, type: 'lin')])
            }
            def s = fallback(trackSensitive: false, transitionLength: 2, transitions: [xfade, xfade],
                    onSelect: { src -> log.info("select \${src.id} at \${frames}") }, live, music)
            output.file(wav(), '${dir}/out.wav', s)
        """.stripIndent(), [:])
        station.start(null)

        when: 'a DJ streams 880 Hz for 6 s'
        Thread.sleep(1000)
        Process dj = LiveInputSpec.sourceClient(port, 'secret', 6, 880)
        assert dj.waitFor(20, TimeUnit.SECONDS)
        assert Net.await(10) { selections().size() == 3 }
        Thread.sleep(3500)
        station.stop()
        Wav w = Wav.read(dir.resolve('out.wav'))
        double on = selections()[1] * 0.02
        double off = selections()[2] * 0.02
        Closure<Double> music = { double t -> w.amplitude(440, t, t + 0.2) }
        Closure<Double> live = { double t -> w.amplitude(880, t, t + 0.2) }
        // The DJ's level as heard alone: ffmpeg's sine is 1/8, less 3 dB for its mono-to-stereo upmix and the MP3 round trip.
        double level = live(on + 2.4)
        println "DJ on air at ${on} s, off at ${off} s, at ${level}"

        then: 'the music alone before the DJ'
        Math.abs(music(on - 0.6) - 0.125) < 0.01
        live(on - 0.6) < 0.01

        and: 'a quarter and three quarters into the transition (window centres)'
        Math.abs(music(on + 0.4) - 0.125 * 0.75) < 0.015
        Math.abs(live(on + 0.4) - level * 0.25) < 0.015
        Math.abs(music(on + 1.4) - 0.125 * 0.25) < 0.015
        Math.abs(live(on + 1.4) - level * 0.75) < 0.015

        and: 'then the DJ alone, at a steady level'
        level > 0.07 && level < 0.13
        Math.abs(live(on + 3.4) - level) < 0.01
        music(on + 2.4) < 0.01

        and: 'after the show the music rises again over 2 s'
        Math.abs(music(off + 0.4) - 0.125 * 0.25) < 0.015
        Math.abs(music(off + 2.4) - 0.125) < 0.01
        live(off + 2.4) < 0.01
    }

    @Unroll
    def "behind #shape, the DJ is on air within the input's buffer and the transition of connecting"() {
        given: 'a 40 s music track, so the DJ cannot be waiting for its end'
        Path song = Media.mp3('live-long-440.mp3', [440], 40, 'Long Song')
        station = Engine.load('live.groovy', """
            def live = input.harbor('live', port: ${port}, password: 'secret', buffer: 1)
            def radio = fallback(trackSensitive: false, live, single('${song}'))
            output.file(wav(), '${dir}/out.wav', ${wrap})
        """.stripIndent(), [:])
        station.start(null)
        long t0 = System.nanoTime()

        when: 'the DJ connects at about 1 s and streams 880 Hz for 7 s'
        Thread.sleep(1000)
        double connectAt = (System.nanoTime() - t0) / 1e9
        Process dj = LiveInputSpec.sourceClient(port, 'secret', 7, 880)
        assert dj.waitFor(20, TimeUnit.SECONDS)
        station.stop()
        Wav w = Wav.read(dir.resolve('out.wav'))

        then: 'the music before'
        Math.abs(w.frequency(0.2, connectAt - 0.1) - 440) < 5

        and: 'the DJ by the buffer (1 s) and the 3 s transition after connecting, with a second to spare'
        Math.abs(w.frequency(connectAt + 5, connectAt + 6.5) - 880) < 5

        where:
        shape       | wrap
        'crossfade' | 'crossfade(radio, duration: 3)'
        'cross'     | 'cross(radio, duration: 3) { a, b -> add(normalize: false, [fade.out(a.source, duration: 3), fade.in(b.source, duration: 3)]) }'
    }

    def "recording the live input with fallible: true gives one closed, playable file per show"() {
        given: 'the path a function, asked for each show; the station plays the DJ or a 440 Hz tone'
        station = Engine.load('live.groovy', """
            def shows = 0
            def live = input.harbor('live', port: ${port}, password: 'secret', buffer: 1)
            output.file(wav(), { -> shows++; "${dir}/show-\${shows}.wav" }, live, fallible: true,
                    onClose: { path -> log.info("closed \${path}") })
            output.file(wav(), '${dir}/air.wav', fallback(trackSensitive: false, live, sine(440, amplitude: 0.1)))
        """.stripIndent(), [:])
        station.start(null)

        when: 'a DJ streams 880 Hz for 3 s, and after a pause another streams 660 Hz for 3 s'
        Thread.sleep(500)
        Process first = LiveInputSpec.sourceClient(port, 'secret', 3, 880)
        assert first.waitFor(20, TimeUnit.SECONDS)
        assert Net.await(5) { station.scriptLog().recent().contains("info: closed ${dir}/show-1.wav".toString()) }
        Thread.sleep(1500)
        Process second = LiveInputSpec.sourceClient(port, 'secret', 3, 660)
        assert second.waitFor(20, TimeUnit.SECONDS)
        assert Net.await(5) { station.scriptLog().recent().contains("info: closed ${dir}/show-2.wav".toString()) }
        Thread.sleep(500)
        station.stop()
        List<String> shows = Files.list(dir).withCloseable { s -> s.map { it.fileName.toString() }.filter { it.startsWith('show') }.sorted().toList() }

        then: 'two files, each closed once'
        shows == ['show-1.wav', 'show-2.wav']
        station.scriptLog().recent().count { it.startsWith('info: closed ') } == 2

        and: "each a valid WAV (its header fixed up at the close) holding that show's audio, and only it"
        checkShow(Wav.read(dir.resolve('show-1.wav')), 880)
        checkShow(Wav.read(dir.resolve('show-2.wav')), 660)

        and: 'the station played on around the shows'
        Math.abs(Wav.read(dir.resolve('air.wav')).frequency(0.1, 0.4) - 440) < 5
    }

    static boolean checkShow(Wav w, int freq) {
        println "show at ${freq} Hz: ${w.seconds} s"
        assert w.seconds > 2.3 && w.seconds < 3.7
        assert Math.abs(w.frequency(0.05, w.seconds - 0.05) - freq) < 5
        int windows = (int) ((w.seconds - 0.05) / 0.25)
        // No gap: every quarter second near the level of the whole show (0.084 for ffmpeg's sine, upmixed to stereo)
        double level = w.amplitude(freq, 0, windows * 0.25)
        assert level > 0.07
        assert (0..<windows).every { int k -> w.amplitude(freq, k * 0.25, (k + 1) * 0.25) > level * 0.85 }
        true
    }
}
