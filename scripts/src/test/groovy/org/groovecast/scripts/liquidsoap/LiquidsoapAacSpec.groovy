package org.groovecast.scripts.liquidsoap

import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit
import org.groovecast.scripts.support.Engine
import org.groovecast.scripts.support.LogCapture
import org.groovecast.scripts.support.Media
import spock.lang.Specification
import spock.lang.Tag
import spock.lang.TempDir

/**
 * AzuraCast's AAC from a .liq station, libfdk_aac with profile="aac_he_v2", where FFmpeg has no
 * libfdk_aac: FFmpeg's native AAC-LC at the same bit rate, one warning per encoder naming the
 * downgrade, and ADTS streams ffprobe reads.
 */
@Tag("integration")
class LiquidsoapAacSpec extends Specification {
    @TempDir
    Path dir

    private static String probe(Path file, String entry) {
        Process p = new ProcessBuilder('ffprobe', '-v', 'error', '-show_entries', entry, '-of',
                'default=noprint_wrappers=1:nokey=1', file.toString()).redirectErrorStream(true).start()
        String out = p.inputStream.text.strip()
        assert p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0: "ffprobe ${file}: ${out}"
        out
    }

    def "%ffmpeg(libfdk_aac, aac_he_v2) and %fdkaac: native AAC-LC at 64 kbit/s, one warning each, playable ADTS"() {
        given:
        Path ffmpegFile = dir.resolve('ffmpeg.aac')
        Path fdkFile = dir.resolve('fdk.aac')
        def log = new LogCapture('org.groovecast.ffmpeg.encode.EncoderOperators')

        when:
        Engine.render('aac.liq', """\
            radio = sine(amplitude=0.3, 440.)
            output.file(%ffmpeg(format="adts", %audio(codec="libfdk_aac", samplerate=44100, channels=2, b="64k", profile="aac_he_v2", afterburner=0)),
                        "${ffmpegFile}", radio)
            output.file(%fdkaac(channels=2, samplerate=44100, bitrate=64, afterburner=false, aot="mpeg4_he_aac_v2", transmux="adts"),
                        "${fdkFile}", radio)
            """.stripIndent(), 4)
        def warnings = log.messages().findAll { it.contains('libfdk_aac') }
        log.close()

        then: 'one warning per encoder, naming what it was asked for and what it encodes'
        warnings == ['ffmpeg(): libfdk_aac is not available (this FFmpeg is built without it): ' +
                             "FFmpeg's native AAC-LC at 64k instead of HE-AACv2 (profile=aac_he_v2)"] * 2

        and: 'both are AAC-LC in ADTS, stereo 44.1 kHz, about 64 kbit/s, 4 s of the tone'
        [ffmpegFile, fdkFile].every { f ->
            probe(f, 'stream=codec_name') == 'aac' && probe(f, 'stream=profile') == 'LC' &&
                    probe(f, 'format=format_name') == 'aac' && probe(f, 'stream=sample_rate') == '44100' &&
                    probe(f, 'stream=channels') == '2'
        }
        [ffmpegFile, fdkFile].every { f ->
            double seconds = Media.decodedSeconds(f)
            double kbps = Files.size(f) * 8 / seconds / 1000
            Math.abs(seconds - 4) < 0.2 && Math.abs(kbps - 64) < 8
        }
    }
}
