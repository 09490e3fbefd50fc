package org.groovecast.scripts.operators

import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit
import org.groovecast.host.Station
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.Media
import org.groovecast.scripts.support.Wav
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/** Loudness, dynamics and dead air, checked against ffmpeg's own ebur128 meter where it applies. */
@Tag("integration")
class DspSpec extends Specification {
    @TempDir
    Path dir

    Station render(String script, double seconds) {
        Engine.render('dsp.groovy', script.replace('DIR', dir.toString()), seconds)
    }

    /** A stereo WAV made by an ffmpeg filter graph (lavfi), once. */
    static Path lavfi(String name, String graph) {
        Media.once(name) { Path out ->
            Media.run(['ffmpeg', '-nostdin', '-v', 'error', '-y', '-filter_complex', graph, '-ac', '2', '-ar', '44100',
                       '-c:a', 'pcm_s16le', out.toString()])
        }
    }

    /** ffmpeg's integrated loudness (ebur128 filter) of a file from {@code from} seconds on. */
    static double ebur128(Path file, double from = 0, boolean truePeak = false) {
        def cmd = ['ffmpeg', '-nostdin', '-hide_banner', '-ss', String.valueOf(from), '-i', file.toString(), '-af',
                   'ebur128' + (truePeak ? '=peak=true' : ''), '-f', 'null', '-']
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start()
        String out = p.inputStream.text
        assert p.waitFor(60, TimeUnit.SECONDS)
        // the summary comes last, after a line per 100 ms
        String summary = out.substring(out.lastIndexOf('Summary:'))
        def m = truePeak ? (summary =~ /Peak:\s+(-?[0-9.]+|-inf) dBFS/) : (summary =~ /I:\s+(-?[0-9.]+) LUFS/)
        assert m.find(): out
        m.group(1) == '-inf' ? Double.NEGATIVE_INFINITY : m.group(1) as double
    }

    def "normalize brings a -23 LUFS and a -8 LUFS tone to -14 LUFS within 0.5 LU, by ffmpeg's ebur128"() {
        given:
        Path quiet = lavfi('tone-23.wav', 'aevalsrc=0.1*sin(2*PI*1000*t):s=44100:d=20')
        Path loud = lavfi('tone-8.wav', 'aevalsrc=0.563*sin(2*PI*1000*t):s=44100:d=20')

        expect: 'the inputs are where they should be'
        Math.abs(ebur128(quiet) + 23) < 0.5
        Math.abs(ebur128(loud) + 8) < 0.5

        when:
        render("""
            output.file(wav(), 'DIR/quiet.wav', normalize(single('${quiet}'), target: -14))
            output.file(wav(), 'DIR/loud.wav', normalize(single('${loud}'), target: -14))
        """, 20)

        then: 'after the first seconds (the gain settles within one, then moves at most 3 dB/s)'
        Math.abs(ebur128(dir.resolve('quiet.wav'), 3) + 14) < 0.5
        Math.abs(ebur128(dir.resolve('loud.wav'), 3) + 14) < 0.5
    }

    def "normalize leaves a -45 LUFS input alone below its -40 threshold, and normalizes it with threshold: -50"() {
        given: 'a 1 kHz tone 22 dB under the -23 LUFS one'
        Path quiet = lavfi('tone-45.wav', 'aevalsrc=0.00794*sin(2*PI*1000*t):s=44100:d=12')

        expect:
        Math.abs(ebur128(quiet) + 45) < 0.5

        when:
        Station st = render("""
            def held = normalize(single('${quiet}'), target: -14, maxGain: 40)
            def adapted = normalize(single('${quiet}'), target: -14, maxGain: 40, threshold: -50)
            output.file(wav(samplesize: 24), 'DIR/held.wav', held)
            output.file(wav(samplesize: 24), 'DIR/adapted.wav', adapted)
        """, 12)
        def gains = st.graph().sources().findAll { it.kind() == 'normalize' }*.gain

        then: 'under the threshold the gain stays at 0 dB: what comes out is what went in'
        gains[0] == 0d
        Math.abs(ebur128(dir.resolve('held.wav'), 3) + 45) < 0.5

        and: 'over it, the same input is brought to the target'
        Math.abs(gains[1] - 31) < 1
        Math.abs(ebur128(dir.resolve('adapted.wav'), 3) + 14) < 0.5
    }

    def "normalize holds the gain it had when the input falls under the threshold"() {
        given: '8 s at -23 LUFS, then 12 s at -51 LUFS'
        Path drop = lavfi('tone-23-51.wav', 'aevalsrc=0.1*sin(2*PI*1000*t):s=44100:d=8[a];' +
                'aevalsrc=0.00398*sin(2*PI*1000*t):s=44100:d=12[b];[a][b]concat=n=2:v=0:a=1')

        when:
        Station st = render("""
            output.file(wav(samplesize: 24), 'DIR/drop.wav', normalize(single('${drop}'), target: -14))
        """, 20)
        double gain = st.graph().sources().find { it.kind() == 'normalize' }.gain

        then: 'the gain rose to +9 dB on the loud part, moved up at most to maxGain while the 3 s window fell through -40, then held'
        gain >= 9 - 0.5 && gain <= 12
        // the quiet part comes out that much louder, not at -51 (gain reset) nor at -14 (gain adapted)
        Math.abs(ebur128(dir.resolve('drop.wav'), 12) - (-51 + gain)) < 0.6
    }

    def "normalize with lufs: false targets the plain RMS level in dBFS"() {
        given:
        Path quiet = lavfi('tone-23.wav', 'aevalsrc=0.1*sin(2*PI*1000*t):s=44100:d=20')

        when:
        render("output.file(wav(), 'DIR/rms.wav', normalize(single('${quiet}'), target: -20, lufs: false))", 10)
        Wav w = Wav.read(dir.resolve('rms.wav'))
        double sum = 0
        int from = 3 * 44100
        for (int i = from; i < w.frames; i++) sum += w.floats[0][i] * w.floats[0][i]

        then: '20 log10 of the RMS of a channel, after the first seconds'
        Math.abs(10 * Math.log10(sum / (w.frames - from)) + 20) < 0.5
    }

    def "the lufs meter agrees with ffmpeg's ebur128 within 0.3 LU"() {
        given:
        Path music = lavfi('mix.wav', 'aevalsrc=0.2*sin(2*PI*220*t)+0.1*sin(2*PI*3000*t)*sin(2*PI*0.5*t):s=44100:d=10')

        when:
        Station st = render("output.dummy(lufs(single('${music}')))", 10)
        def meter = st.graph().sources().find { it.kind() == 'lufs' }

        then:
        Math.abs(meter.integrated - ebur128(music)) < 0.3
        meter.shortTerm > -70
        meter.momentary > -70
    }

    def "compress follows its static curve; limit keeps every peak, true peaks included, under the threshold"() {
        when:
        render('''
            output.file(wav(samplesize: 24), 'DIR/comp.wav',
                    compress(sine(1000, amplitude: 0.5), threshold: -20, ratio: 4, attack: 5, release: 50))
            output.file(wav(samplesize: 24), 'DIR/lim.wav', limit(sine(997, amplitude: 2.0), threshold: -1))
        ''', 4)
        Wav comp = Wav.read(dir.resolve('comp.wav'))
        Wav lim = Wav.read(dir.resolve('lim.wav'))
        double compPeak = peak(comp, 2 * 44100, 4 * 44100)

        then: '-6 dBFS in, threshold -20, ratio 4: -20 + 14 / 4 = -16.5 dBFS out'
        Math.abs(20 * Math.log10(compPeak) + 16.5) < 1.0

        and: 'a +6 dBFS sine limited to -1 dBFS'
        peak(lim, 441, lim.frames) <= Math.pow(10, -1 / 20) * 1.001
        peak(lim, 44100, lim.frames) > Math.pow(10, -1 / 20) * 0.95
        ebur128(dir.resolve('lim.wav'), 0.1, true) <= -0.7
    }

    static double peak(Wav w, int from, int to) {
        double p = 0
        for (int c = 0; c < w.channels; c++) {
            for (int i = from; i < to; i++) p = Math.max(p, Math.abs(w.floats[c][i]))
        }
        p
    }

    def "blank.strip in a fallback hands over to the backup within maxBlank of silence and comes back"() {
        given: '5 s of tone, 30 s of silence, 5 s of tone'
        Path gap = lavfi('gap.wav', 'sine=frequency=440:sample_rate=44100:duration=5[a];anullsrc=r=44100:cl=mono:d=30[b];' +
                'sine=frequency=440:sample_rate=44100:duration=5[c];[a][b][c]concat=n=3:v=0:a=1')

        when:
        render("""
            def s = fallback(trackSensitive: false, blank.strip(single('${gap}'), maxBlank: 2), sine(880, amplitude: 0.3))
            output.file(wav(), 'DIR/out.wav', s)
        """, 40)
        Wav w = Wav.read(dir.resolve('out.wav'))

        then: 'the tone, the backup from about 7 s (5 s + 2 s of silence), the tone again once it returns at 35 s'
        Math.abs(w.frequency(0.5, 4.5) - 440) < 3
        Math.abs(w.frequency(7.5, 34.5) - 880) < 3
        Math.abs(w.frequency(35.5, 39.5) - 440) < 3
    }

    def "blank.detect calls back once per silence; blank.skip ends a track that went silent"() {
        given:
        Path tail = lavfi('tail.wav', 'sine=frequency=440:sample_rate=44100:duration=2[a];anullsrc=r=44100:cl=mono:d=10[b];' +
                '[a][b]concat=n=2:v=0:a=1')
        Path other = lavfi('other.wav', 'sine=frequency=880:sample_rate=44100:duration=3')

        when:
        render("""
            def s = playlist(['${tail}'], mode: 'normal')
            def d = blank.detect(s, maxBlank: 1) { -> s.insertMetadata(title: 'deadair') }
            output.file(wav(), 'DIR/%{title}.wav', d, reopenOnMetadata: true, fallible: true)
            output.file(wav(), 'DIR/skipped.wav', blank.skip(playlist(['${tail}', '${other}'], mode: 'normal'), maxBlank: 1),
                    fallible: true)
        """, 6)
        Wav skipped = Wav.read(dir.resolve('skipped.wav'))

        then: 'dead air was reported'
        Files.exists(dir.resolve('deadair.wav'))

        and: 'the silent tail was cut after 1 s: the next track at about 3 s, not at 12 s'
        Math.abs(skipped.frequency(0.2, 1.8) - 440) < 3
        Math.abs(skipped.frequency(3.3, 5.8) - 880) < 3
    }

    def "ffmpeg.filter runs any libavfilter audio graph; a bad graph is a script error with its line"() {
        when:
        render('''
            output.file(wav(samplesize: 24), 'DIR/raw.wav', sine(441, amplitude: 0.8))
            output.file(wav(samplesize: 24), 'DIR/half.wav', ffmpeg.filter(sine(441, amplitude: 0.8), 'volume=0.5'))
            output.file(wav(samplesize: 24), 'DIR/lim.wav',
                    ffmpeg.filter(sine(441, amplitude: 0.8), 'acompressor=threshold=-18dB:ratio=4,alimiter=limit=0.5'))
        ''', 3)
        Wav raw = Wav.read(dir.resolve('raw.wav'))
        Wav half = Wav.read(dir.resolve('half.wav'))
        Wav lim = Wav.read(dir.resolve('lim.wav'))

        then: 'volume=0.5 halves every sample (the graph adds no delay)'
        (44100..<88200).every { Math.abs(half.floats[0][it] - raw.floats[0][it] / 2) < 1e-4 }

        and: 'the compressor and limiter chain holds peaks at 0.5'
        peak(lim, 44100, lim.frames) <= 0.5 * 1.01
        peak(lim, 44100, lim.frames) > 0.2

        when:
        Engine.load('dsp.groovy', "def s = sine()\noutput.dummy(ffmpeg.filter(s, 'nosuchfilter=1'))\n", [:])

        then:
        org.groovecast.host.script.ScriptError e = thrown()
        e.message.startsWith('dsp.groovy:2: ffmpeg.filter(): cannot parse')
    }

    def "amplify's per-track override and replaygain scale tracks by their metadata"() {
        given:
        Path tagged = Media.once('rg.flac') { Path out ->
            Media.run(['ffmpeg', '-nostdin', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=441:sample_rate=44100:duration=4',
                       '-ac', '2', '-metadata', 'replaygain_track_gain=-6.0206 dB', '-c:a', 'flac', out.toString()])
        }

        when:
        render("""
            output.file(wav(samplesize: 24), 'DIR/raw.wav', playlist(['${tagged}'], mode: 'normal'), fallible: true)
            output.file(wav(samplesize: 24), 'DIR/rg.wav', replaygain(playlist(['${tagged}'], mode: 'normal')), fallible: true)
            output.file(wav(samplesize: 24), 'DIR/ov.wav', amplify(1.0, playlist(['annotate:liq_amplify="0.25":${tagged}'],
                    mode: 'normal'), override: 'liq_amplify'), fallible: true)
        """, 3)
        Wav raw = Wav.read(dir.resolve('raw.wav'))
        Wav rg = Wav.read(dir.resolve('rg.wav'))
        Wav ov = Wav.read(dir.resolve('ov.wav'))

        then: '-6.02 dB is half; liq_amplify 0.25 a quarter (after the first frame, which ramps)'
        (2000..<100000).every { Math.abs(rg.floats[0][it] - raw.floats[0][it] * 0.5) < 1e-4 }
        (2000..<100000).every { Math.abs(ov.floats[0][it] - raw.floats[0][it] * 0.25) < 1e-4 }
    }
}
