package org.groovecast.scripts.support

import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.StandardCopyOption
import java.util.concurrent.TimeUnit

/** Test media made by the ffmpeg command line at test time (no binary fixtures in git), and ffprobe. */
final class Media {
    static final Path DIR = Path.of('target', 'media').toAbsolutePath()

    /**
     * {@code DIR/name}, written by {@code make} (given the path to write to) unless it exists. The
     * specs run in several JVMs at once (scripts/pom.xml) and some share a file (RtmpSpec's clip):
     * it is written under a name of this JVM's, then renamed, so that no spec reads another's
     * half-written file.
     */
    static Path once(String name, Closure make) {
        Path out = DIR.resolve(name)
        if (Files.exists(out)) return out
        Files.createDirectories(DIR)
        Path part = DIR.resolve(".${ProcessHandle.current().pid()}-${name}") // the same extension, which ffmpeg goes by
        make(part)
        Files.move(part, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE)
    }

    /** Consecutive tones, {@code seconds} each, at the given frequencies, tagged with {@code title}. */
    static Path tones(String name, List<Integer> freqs, double seconds, String title, List<String> codec) {
        def inputs = freqs.withIndex().collect { f, i -> "sine=frequency=${f}:sample_rate=44100:duration=${seconds}[a${i}]" }
        def graph = inputs.join(';') + ';' + (0..<freqs.size()).collect { "[a${it}]" }.join('') + "concat=n=${freqs.size()}:v=0:a=1"
        once(name) { Path out ->
            run(['ffmpeg', '-nostdin', '-v', 'error', '-y', '-filter_complex', graph, '-ac', '2',
                 '-metadata', "title=${title}".toString(), '-metadata', 'artist=Groovecast Tests'] + codec + [out.toString()])
        }
    }

    static Path mp3(String name, List<Integer> freqs, double seconds, String title = name) {
        tones(name, freqs, seconds, title, ['-c:a', 'libmp3lame', '-b:a', '128k'])
    }

    /**
     * A 720p H.264 + AAC Matroska clip: {@code seconds} of red then {@code seconds} of blue at 25
     * images per second, with a 440 Hz tone. Solid colours keep it a few kilobytes.
     */
    static Path colourClip(String name, double seconds, String size = '1280x720') {
        String graph = "color=c=red:s=${size}:r=25:d=${seconds}[r];color=c=blue:s=${size}:r=25:d=${seconds}[b];" +
                "[r][b]concat=n=2:v=1:a=0[v];sine=frequency=440:sample_rate=44100:duration=${2 * seconds}[a]"
        once(name) { Path out ->
            run(['ffmpeg', '-nostdin', '-v', 'error', '-y', '-filter_complex', graph, '-map', '[v]', '-map', '[a]',
                 '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-ac', '2', out.toString()])
        }
    }

    /** Per decoded picture of the first video stream, the average of plane U and V (signalstats). */
    static List<List<Double>> chroma(Path file) {
        Process p = new ProcessBuilder('ffprobe', '-v', 'error', '-f', 'lavfi', '-i', "movie=${file},signalstats".toString(),
                '-show_entries', 'frame_tags=lavfi.signalstats.UAVG,lavfi.signalstats.VAVG', '-of', 'csv=p=0')
                .redirectErrorStream(true).start()
        String out = p.inputStream.text.strip()
        assert p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0: "ffprobe ${file}: ${out}"
        out.readLines().findAll { it.contains(',') }.collect { it.split(',').collect { it as double } }
    }

    /**
     * What ffmpeg hears of {@code url} (given {@code input} options) in 2 s, recorded to {@code wav}:
     * the dominant frequency, after at least 1.5 s of sound.
     */
    static double heard(Path wav, String url, List<String> input = []) {
        record(wav, url, input, 2)
        Wav w = Wav.read(wav)
        assert w.seconds > 1.5
        w.frequency(0.2, w.seconds - 0.2)
    }

    /**
     * What a new listener of a 128 kbit/s harbor mount hears once the mount's default burst
     * (65,536 bytes, about 4.1 s, sent at once) has played: the stream from the moment it joined.
     */
    static double heardAfterBurst(Path wav, String url) {
        record(wav, url, [], 7)
        Wav w = Wav.read(wav)
        assert w.seconds > 6.5
        w.frequency(5.0, w.seconds - 0.2)
    }

    private static void record(Path wav, String url, List<String> input, int seconds) {
        run(['ffmpeg', '-nostdin', '-v', 'error', '-y', '-t', "${seconds}".toString()] + input
                + ['-i', url, '-ac', '1', '-ar', '44100', '-bitexact', wav.toString()])
    }

    static void run(List<String> cmd) {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start()
        String output = p.inputStream.text
        assert p.waitFor(120, TimeUnit.SECONDS) && p.exitValue() == 0: "${cmd.join(' ')}: ${output}"
    }

    /**
     * Seconds of audio by counting the decoded frames (ADTS files carry no duration: ffprobe's
     * format duration is only a guess from the bit rate).
     */
    static double decodedSeconds(Path file, int samplesPerFrame = 1024, int rate = 44100) {
        Process p = new ProcessBuilder('ffprobe', '-v', 'error', '-count_frames', '-select_streams', 'a:0',
                '-show_entries', 'stream=nb_read_frames', '-of', 'default=noprint_wrappers=1:nokey=1', file.toString())
                .redirectErrorStream(true).start()
        String out = p.inputStream.text.strip()
        assert p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0: "ffprobe ${file}: ${out}"
        (out.readLines()[0] as long) * samplesPerFrame / (double) rate
    }

    /** ffprobe's value of {@code entry} ('format=duration', 'stream=codec_name') for a file. */
    static String probe(Path file, String entry, String select = null) {
        def cmd = ['ffprobe', '-v', 'error']
        if (select) cmd += ['-select_streams', select]
        cmd += ['-show_entries', entry, '-of', 'default=noprint_wrappers=1:nokey=1', file.toString()]
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start()
        String out = p.inputStream.text.strip()
        assert p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0: "ffprobe ${file}: ${out}"
        out
    }
}
