package org.groovecast.scripts.operators

import java.nio.file.Files
import java.nio.file.Path
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.Media
import org.groovecast.scripts.support.Wav
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir
import spock.lang.Unroll

/** Fades and crossfades, sample-accurate on 'none'-sync clocks. */
@Tag("integration")
class TransitionsSpec extends Specification {
    @TempDir
    Path dir

    static final Map<String, Closure<Double>> CURVES = [
            lin: { double x -> x },
            sin: { double x -> (1 - Math.cos(Math.PI * x)) / 2 },
            log: { double x -> Math.log10(1 + 9 * x) },
            exp: { double x -> (Math.pow(10, x) - 1) / 9 },
    ]

    org.groovecast.host.Station render(String script, double seconds) {
        Engine.render('transitions.groovy', script.replace('DIR', dir.toString()), seconds)
    }

    /** Gains out/raw where the raw signal is large enough to divide by. */
    static List<double[]> gains(Wav raw, Wav faded, int from, int to) {
        (from..<to).findAll { Math.abs(raw.floats[0][it]) > 0.2 }.collect { i -> [i, faded.floats[0][i] / raw.floats[0][i]] as double[] }
    }

    @Unroll
    def "fade.in and fade.out follow the #type curve within 1e-4"() {
        when: 'tracks of 2 s, fades of 1 s, rendered beside the untouched signal (24-bit WAV)'
        render("""
            def s = sine(441, amplitude: 0.5).tracks(duration: 2)
            output.file(wav(samplesize: 24), 'DIR/raw.wav', s)
            output.file(wav(samplesize: 24), 'DIR/in.wav', fade.in(s, duration: 1, type: '${type}'))
            output.file(wav(samplesize: 24), 'DIR/out.wav', fade.out(s, duration: 1, type: '${type}'))
        """, 4)
        Wav raw = Wav.read(dir.resolve('raw.wav'))
        Wav fin = Wav.read(dir.resolve('in.wav'))
        Wav fout = Wav.read(dir.resolve('out.wav'))
        Closure<Double> curve = CURVES[type]
        int T = 88200
        int L = 44100

        then: 'fade in over the first second of each track, full level after'
        [0, T].every { int track ->
            gains(raw, fin, track, track + L).every { Math.abs(it[1] - curve((it[0] - track) / L)) < 1e-4 } &&
                    gains(raw, fin, track + L, track + T).every { Math.abs(it[1] - 1) < 1e-4 }
        }

        and: 'fade out over the last second of each track'
        [0, T].every { int track ->
            gains(raw, fout, track, track + T - L).every { Math.abs(it[1] - 1) < 1e-4 } &&
                    gains(raw, fout, track + T - L, track + T).every {
                        Math.abs(it[1] - curve((track + T - it[0] - 1) / (double) L)) < 1e-4
                    }
        }

        where:
        type << ['lin', 'sin', 'log', 'exp']
    }

    def "a crossfade of two 5 s tracks titled a and b: each title once, the new one where the mix begins"() {
        given:
        Path a = Media.tones('xa.wav', [440], 5, 'a', ['-c:a', 'pcm_s16le'])
        Path b = Media.tones('xb.wav', [660], 5, 'b', ['-c:a', 'pcm_s16le'])

        when: 'a file per title (a title seen twice would restart its file)'
        render("""
            def s = crossfade(playlist(['${a}', '${b}'], mode: 'normal'), duration: 2, fadeIn: 2, fadeOut: 2)
            output.file(wav(), 'DIR/%{title}.wav', s, reopenOnMetadata: true, fallible: true)
            output.file(wav(), 'DIR/all.wav', s, fallible: true)
        """, 5.5)
        Wav wa = Wav.read(dir.resolve('a.wav'))
        Wav wb = Wav.read(dir.resolve('b.wav'))
        Wav all = Wav.read(dir.resolve('all.wav'))

        then: 'a plays 3 s alone; b is announced at sample 132,300, when it becomes audible'
        wa.frames == 3 * 44100
        wb.frames == (int) (2.5 * 44100)
        all.frames == (int) (5.5 * 44100)
        Math.abs(all.frequency(0.5, 2.5) - 440) < 3
        Math.abs(all.frequency(4.2, 5.4) - 660) < 3

        and: 'in the middle of the mix both are heard at about equal level'
        double mid = rms(all, (int) (3.9 * 44100), (int) (4.1 * 44100))
        double solo = rms(all, (int) (1.0 * 44100), (int) (1.2 * 44100))
        mid > 0.3 * solo && mid < 1.5 * solo
    }

    static double rms(Wav w, int from, int to) {
        double sum = 0
        for (int i = from; i < to; i++) sum += w.floats[0][i] * w.floats[0][i]
        Math.sqrt(sum / (to - from))
    }

    def "a track shorter than the crossfade does not break the stream, and metadata can override the durations"() {
        given:
        Path a = Media.tones('ya.wav', [440], 5, 'long', ['-c:a', 'pcm_s16le'])
        Path j = Media.tones('yj.wav', [880], 1, 'jingle', ['-c:a', 'pcm_s16le'])

        when:
        render("""
            def s = crossfade(playlist(['${a}', '${j}', '${a}'], mode: 'normal'), duration: 3)
            output.file(wav(), 'DIR/all.wav', s, fallible: true)
            output.file(wav(samplesize: 24), 'DIR/faded.wav',
                    fade.in(playlist(['annotate:liq_fade_in="0.5",liq_fade_in_type="lin":${a}'], mode: 'normal'), duration: 3),
                    fallible: true)
        """, 10)
        Wav all = Wav.read(dir.resolve('all.wav'))
        Wav faded = Wav.read(dir.resolve('faded.wav'))

        then: 'ten seconds of stream, no gap'
        all.seconds == 10.0d
        (0..<20).every { int k -> rms(all, k * 22050, (k + 1) * 22050) > 0.01 }

        and: 'liq_fade_in="0.5" made the fade 0.5 s instead of 3'
        Math.abs(rms(faded, (int) (0.6 * 44100), (int) (0.8 * 44100)) - rms(faded, (int) (2.0 * 44100), (int) (2.2 * 44100))) < 0.01
        rms(faded, 0, 2205) < 0.2 * rms(faded, (int) (2.0 * 44100), (int) (2.2 * 44100))
    }

    def "cross builds each transition in the script, and what it registers is released after each"() {
        given:
        Path a = Media.tones('cross-a.wav', [440], 3, 'a', ['-c:a', 'pcm_s16le'])
        Path b = Media.tones('cross-b.wav', [660], 3, 'b', ['-c:a', 'pcm_s16le'])

        when: 'tracks of 3 s with 1 s transitions: a new track every 2 s, nine transitions in 20 s'
        def station = render("""
            def s = playlist(['${a}', '${b}'], mode: 'normal', id: 'music')
            def levels = []
            def x = cross(s, duration: 1) { ending, starting ->
                s.onMetadata { m -> }   // a registration per call: released after each transition
                levels << ending.db
                add([fade.out(ending.source, duration: 1), fade.in(starting.source, duration: 1)], normalize: false)
            }
            output.file(wav(), 'DIR/%{title}.wav', x, reopenOnMetadata: true, fallible: true)
            output.file(wav(), 'DIR/all.wav', x, fallible: true)
        """, 20)
        Wav all = Wav.read(dir.resolve('all.wav'))
        def music = station.graph().sources().find { it.id() == 'music' }

        then: 'the stream plays whole, each title announced where its track becomes audible (its mix start)'
        all.seconds == 20.0d
        Math.abs(all.frequency(0.1, 1.9) - 440) < 3
        Math.abs(all.frequency(3.1, 3.9) - 660) < 3
        Wav.read(dir.resolve('a.wav')).frames == 2 * 44100 // the last a: 16 s to 18 s
        Wav.read(dir.resolve('b.wav')).frames == 2 * 44100 // the last b: 18 s to 20 s

        and: 'no registration left over from twenty calls'
        music.registrations() <= 1
    }

    def "10,000 script transitions leave the registration count flat"() {
        when: 'tracks of 0.1 s crossed over 0.04 s: 10,000 transitions in 1,000 s, rendered offline'
        def station = render('''
            def s = sine(440, amplitude: 0.2, id: 'tone').tracks(duration: 0.1, id: 'cut')
            def x = cross(s, duration: 0.04) { a, b ->
                s.onMetadata { m -> }
                s.onTrack { m -> }
                add([a.source, b.source], normalize: false)
            }
            output.dummy(x)
        ''', 1000)
        def cut = station.graph().sources().find { it.id() == 'cut' }

        then:
        cut.registrations() <= 2
    }

    def "a switch that cuts into a playing track (trackSensitive: false) crosses the two over the cut's frame, without a click"() {
        when: 'the predicate flips at frame 51 (1.02 s), where the 440 Hz tone is near its trough'
        render('''
            def frames = 0
            def low = sine(440, amplitude: 0.5)
            low.onFrame { -> frames++ }
            def high = sine(880, amplitude: 0.5)
            output.dummy(high)   // playing all along: the switch cuts into it mid-track
            def s = switchOn(trackSensitive: false, [[{ -> frames <= 51 }, low], [{ -> true }, high]])
            output.file(wav(samplesize: 24), 'DIR/cut.wav', s, fallible: true)
        ''', 2)
        Wav w = Wav.read(dir.resolve('cut.wav'))
        double biggestStep = (44100..<(int) (1.1 * 44100)).collect { Math.abs(w.floats[0][it] - w.floats[0][it - 1]) }.max()

        then: 'before and after, the tones; at the cut no step bigger than an 880 Hz sine makes by itself (2 pi 880 / 44100 x 0.5)'
        Math.abs(w.frequency(0.2, 0.9) - 440) < 3
        Math.abs(w.frequency(1.2, 1.9) - 880) < 3
        biggestStep < 0.07
    }
}
