package org.groovecast.scripts

import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit

/** Test media made by the ffmpeg command line at test time (no binary fixtures in git), and ffprobe. */
final class Media {
    static final Path DIR = Path.of('target', 'media').toAbsolutePath()

    /** Consecutive tones, {@code seconds} each, at the given frequencies, tagged with {@code title}. */
    static Path tones(String name, List<Integer> freqs, double seconds, String title, List<String> codec) {
        Path out = DIR.resolve(name)
        if (Files.exists(out)) return out
        Files.createDirectories(out.parent)
        def inputs = freqs.withIndex().collect { f, i -> "sine=frequency=${f}:sample_rate=44100:duration=${seconds}[a${i}]" }
        def graph = inputs.join(';') + ';' + (0..<freqs.size()).collect { "[a${it}]" }.join('') + "concat=n=${freqs.size()}:v=0:a=1"
        run(['ffmpeg', '-nostdin', '-v', 'error', '-y', '-filter_complex', graph, '-ac', '2',
             '-metadata', "title=${title}".toString(), '-metadata', 'artist=Groovecast Tests'] + codec + [out.toString()])
        out
    }

    static Path mp3(String name, List<Integer> freqs, double seconds, String title = name) {
        tones(name, freqs, seconds, title, ['-c:a', 'libmp3lame', '-b:a', '128k'])
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
