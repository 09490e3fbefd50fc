package org.groovecast.scripts.liquidsoap

import java.nio.file.Files
import java.nio.file.Path
import org.groovecast.host.Station
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.Media
import org.groovecast.scripts.support.Wav
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/**
 * Autocue: files with silence around their sound play without it, the cue points measured from the
 * audio as each request resolves, in a .liq station (enable_autocue_metadata()) and a Groovy one
 * (settings.autocue.enabled), rendered offline.
 */
@Tag("integration")
class AutocueSpec extends Specification {
    @TempDir
    Path dir

    def setupSpec() {
        // A JVM's first station loads FFmpeg's libraries while its sources prepare: on a loaded
        // machine that can outlast the 10 s the engine waits before starting anyway, and an
        // offline render then runs through its seconds in silence. single() opens its file at load.
        Engine.render('warm.groovy', "output.dummy(mksafe(single('${padded('autocue-a.mp3', 440)}')))", 0.5)
    }

    /** 1.5 s of silence, {@code freq} Hz for 2 s, 1.5 s of silence: 5 s, 2 of them sound. */
    static Path padded(String name, int freq) {
        Media.once(name) { Path out ->
            Media.run(['ffmpeg', '-nostdin', '-v', 'error', '-y', '-f', 'lavfi', '-i',
                       "sine=frequency=${freq}:sample_rate=44100:duration=2".toString(),
                       '-af', 'adelay=1500|1500,apad=pad_dur=1.5', '-ac', '2',
                       '-metadata', "title=${name}".toString(), '-c:a', 'libmp3lame', '-b:a', '128k', out.toString()])
        }
    }

    static double f(Wav w, double from, double to) { Math.round(w.frequency(from, to) / 10) * 10 }

    /** The longest run of silence (peak under 1%) in [from, to), seconds. */
    static double longestSilence(Wav w, double from, double to) {
        int block = w.sampleRate.intdiv(100)
        double longest = 0, run = 0
        for (int i = (int) (from * w.sampleRate); i + block <= (int) (to * w.sampleRate); i += block) {
            int peak = 0
            for (int j = i; j < i + block; j++) peak = Math.max(peak, Math.abs((int) w.samples[0][j]))
            run = peak < 328 ? run + 0.01 : 0
            longest = Math.max(longest, run)
        }
        longest
    }

    def "a .liq station with enable_autocue_metadata() plays its files without the silence around them"() {
        given:
        Path a = padded('autocue-a.mp3', 440)
        Path b = padded('autocue-b.mp3', 660)
        Files.write(dir.resolve('list.m3u'), [a.toString(), b.toString()])
        Path out = dir.resolve('out.wav')

        when:
        Station st = Engine.render('station.liq', """
            log.level := 4
            enable_autocue_metadata()
            s = playlist(mode="normal", "${dir.resolve('list.m3u')}")
            s.on_track(synchronous=true, fun (m) -> log.info("track #{m['title']} cue #{m['liq_cue_in']} #{m['liq_cue_out']} #{m['liq_autocue']}"))
            output.file(%wav, "${out}", mksafe(s))
            """, 5.5)
        Wav w = Wav.read(out)
        List<String> tracks = st.scriptLog().recent().findAll { it.startsWith('info: track') }

        then: 'each track starts about 0.4 s before its sound (the margin and fade-in) and ends about 0.4 s after it'
        tracks.size() >= 2
        tracks[0].endsWith('internal')
        f(w, 0.6, 2.2) == 440
        f(w, 3.5, 5.0) == 660
        longestSilence(w, 0, 5.2) < 1.0 // 0.8 s (tail 0.4, lead-in 0.4); uncut: 3 s between the tones
    }

    def "an implementation the script registers and prefers decides, falling back on the internal one, as AzuraCast's does"() {
        given:
        Path a = padded('autocue-a.mp3', 440)
        Path b = padded('autocue-b.mp3', 660)
        Files.write(dir.resolve('list.m3u'), ["annotate:precomputed=\"true\",pre_cue_in=\"0.5\",pre_cue_out=\"2.5\":${a}".toString(), b.toString()])
        Path out = dir.resolve('out.wav')

        when:
        Station st = Engine.render('station.liq', """
            log.level := 4
            def station_autocue(~request_metadata, ~file_metadata, filename) =
              if list.assoc(default="false", "precomputed", request_metadata) == "true" then
                {
                  cue_in = float_of_string(list.assoc("pre_cue_in", request_metadata)),
                  cue_out = float_of_string(list.assoc("pre_cue_out", request_metadata)),
                  fade_in = 0.,
                  fade_out = 0.,
                  amplify = "0 dB"
                }
              else
                autocue.internal.implementation(
                  request_metadata=request_metadata, file_metadata=file_metadata, filename
                )
              end
            end
            enable_autocue_metadata()
            autocue.register(name="station", station_autocue)
            settings.autocue.preferred := "station"
            s = playlist(mode="normal", "${dir.resolve('list.m3u')}")
            s.on_track(synchronous=true, fun (m) -> log.info("track #{m['liq_autocue']} #{m['liq_cue_in']} #{m['liq_cue_out']}"))
            output.file(%wav, "${out}", mksafe(s))
            """, 4.5)
        Wav w = Wav.read(out)
        List<String> tracks = st.scriptLog().recent().findAll { it.startsWith('info: track') }

        then: "the first track cut where the request said (1 s of silence, 1 s of tone), the second where the sound is"
        tracks.size() >= 2
        tracks[0] == 'info: track station 0.5 2.5'
        tracks[1].startsWith('info: track station ')
        tracks[1] != 'info: track station 0.5 2.5'
        longestSilence(w, 0, 0.9) > 0.8
        f(w, 1.1, 1.9) == 440
        f(w, 2.6, 4.0) == 660
    }

    def "a Groovy station with settings.autocue.enabled does the same; a track annotated with its own cues keeps them"() {
        given:
        Path a = padded('autocue-a.mp3', 440)
        Path out = dir.resolve('out.wav')

        when:
        Engine.render('station.groovy', """
            settings.autocue.enabled = true
            def q = request.queue(queue: ['annotate:liq_cue_in="0",liq_cue_out="5":${a}', '${a}'])
            output.file(wav(), '${out}', mksafe(q))
            """, 7.5)
        Wav w = Wav.read(out)

        then: 'the annotated one whole, silence included; then the measured one, cut'
        longestSilence(w, 0, 1.5) > 1.3
        f(w, 1.6, 3.4) == 440
        f(w, 5.5, 7.2) == 440
        longestSilence(w, 3.6, 7.3) < 2.2 // the 1.5 s tail and a 0.3 s lead-in; uncut, 2.9 s
    }

    def "a Groovy resolver's cues (decoder.metadata.add) cut the track and the file is not measured"() {
        given:
        Path a = padded('autocue-a.mp3', 440)
        Path out = dir.resolve('out.wav')

        when:
        Station st = Engine.render('station.groovy', """
            settings.autocue.enabled = true
            decoder.metadata.add('mine') { file, m -> [liq_cue_in: '1.4', liq_cue_out: '2.6'] }
            def q = request.queue(queue: ['${a}', '${a}'])
            q.onTrack { m -> log.info("track ${'$'}{m.liq_cue_in} ${'$'}{m.liq_autocue}") }
            output.file(wav(), '${out}', mksafe(q))
            """, 2.3)
        Wav w = Wav.read(out)
        List<String> tracks = st.scriptLog().recent().findAll { it.startsWith('info: track') }

        then: 'each play is 1.2 s: 0.1 s of silence, then the tone'
        tracks.size() >= 2
        tracks[0] == 'info: track 1.4 null'
        f(w, 0.3, 1.1) == 440
        f(w, 1.5, 2.3) == 440
        longestSilence(w, 0, 2.3) < 0.3
    }
}
