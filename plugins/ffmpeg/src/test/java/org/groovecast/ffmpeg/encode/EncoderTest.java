package org.groovecast.ffmpeg.encode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.Encoder;
import org.groovecast.api.Frame;
import org.groovecast.ffmpeg.Fixtures;
import org.groovecast.ffmpeg.decode.MediaDecoder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EncoderTest {
    static final AudioFormat FORMAT = new AudioFormat(44100, 2);

    /** Encodes {@code seconds} of a 440 Hz sine into {@code file}, 882 samples per frame. */
    static void encode(Encoder encoder, Path file, double seconds) throws IOException {
        Files.createDirectories(file.getParent());
        try (FileChannel ch =
                        FileChannel.open(
                                file,
                                StandardOpenOption.CREATE,
                                StandardOpenOption.WRITE,
                                StandardOpenOption.TRUNCATE_EXISTING);
                Encoder.Session s = encoder.open(FORMAT, ch)) {
            Frame f = new Frame(FORMAT, 882);
            for (int i = 0; i < seconds * 50; i++) s.encode(sine(f, i * 882L));
        }
    }

    /**
     * Fills {@code f} with 882 samples of a 440 Hz sine at 0.3 on both channels, from sample {@code
     * t} on.
     */
    static Frame sine(Frame f, long t) {
        f.clear();
        for (int k = 0; k < 882; k++, t++) {
            float v = (float) (0.3 * Math.sin(2 * Math.PI * 440 * t / 44100.0));
            f.channel(0)[k] = v;
            f.channel(1)[k] = v;
        }
        f.advance(882);
        return f;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "mp3, mp3, libmp3lame, mp3, 44100",
        "aac, adts, aac, aac, 44100",
        "opus, ogg, libopus, opus, 48000",
        "ogg, ogg, vorbis, vorbis, 44100",
        "flac, flac, flac, flac, 44100",
        "ts, mpegts, aac, aac, 44100"
    })
    void encodesFilesThatFfprobeReads(
            String ext, String format, String codec, String probedCodec, String rate)
            throws IOException {
        Map<String, String> options =
                codec.equals("vorbis") ? Map.of("strict", "experimental") : Map.of("b", "96k");
        if (codec.equals("flac")) options = Map.of();
        FfmpegEncoder e = new FfmpegEncoder(ext, format, codec, options, Map.of(), 0).validate();
        Path file = Fixtures.DIR.resolve("encoded." + ext);
        encode(e, file, 3);
        // mpegts lists its stream once per program too: the first line is the stream's
        assertEquals(
                probedCodec,
                Fixtures.probe(file, "stream=codec_name").lines().findFirst().orElse(""));
        assertEquals(
                rate, Fixtures.probe(file, "stream=sample_rate").lines().findFirst().orElse(""));
        try (MediaDecoder d = MediaDecoder.open(file.toString(), FORMAT)) {
            float[] pcm = Fixtures.decodeAll(d);
            assertEquals(3.0, pcm.length / 44100.0, 0.1, ext + " decoded length");
            assertEquals(
                    440,
                    Fixtures.frequency(pcm, 4410, pcm.length - 4410, 44100),
                    3,
                    ext + " frequency");
        }
    }

    /**
     * {@code ac}/{@code channels} and {@code ar}/{@code samplerate} are taken by every codec, as
     * FFmpeg's command line and Liquidsoap's %audio take them: the stream is converted to them.
     */
    @ParameterizedTest(name = "{0} [{1}] -> {2} ch at {3}")
    @CsvSource(
            delimiter = '|',
            value = {
                "libmp3lame | ac=2 ar=44100 b=128k | 2 | 44100",
                "libmp3lame | ac=1 ar=22050 b=64k  | 1 | 22050",
                "aac        | channels=1 samplerate=32000 b=64k | 1 | 32000",
                "libopus    | ac=2 b=64k           | 2 | 48000"
            })
    void channelsAndRateAreTakenByEveryCodec(String codec, String given, int ch, int rate)
            throws IOException {
        Map<String, String> options = new java.util.LinkedHashMap<>();
        for (String kv : given.trim().split("\\s+"))
            options.put(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
        String format = codec.equals("libopus") ? "ogg" : codec.equals("aac") ? "adts" : "mp3";
        FfmpegEncoder e = new FfmpegEncoder("x", format, codec, options, Map.of(), 0).validate();
        Path file = Fixtures.DIR.resolve("shaped-" + codec + "-" + ch + "." + format);
        encode(e, file, 2);
        assertEquals(
                String.valueOf(ch),
                Fixtures.probe(file, "stream=channels").lines().findFirst().orElse(""));
        assertEquals(
                String.valueOf(rate),
                Fixtures.probe(file, "stream=sample_rate").lines().findFirst().orElse(""));
        try (MediaDecoder d = MediaDecoder.open(file.toString(), FORMAT)) {
            float[] pcm = Fixtures.decodeAll(d);
            assertEquals(2.0, pcm.length / 44100.0, 0.15, "decoded length");
            assertEquals(440, Fixtures.frequency(pcm, 4410, pcm.length - 4410, 44100), 3);
        }
    }

    /** What listeners see as icy-br: the script's b: in kbit/s, 0 where no rate is nominal. */
    @ParameterizedTest(name = "{0} [{1}] -> {2}")
    @CsvSource(
            delimiter = '|',
            value = {
                "libmp3lame | b=128k            | 128",
                "aac        | b=96000           | 96",
                "libopus    | b=64K             | 64",
                "aac        | ''                | 0",
                "flac       | compression_level=5 | 0",
                "libmp3lame | b=128k;q=2        | 0",
                "aac        | b=fast            | 0"
            })
    void bitrateIsTheNominalRateInKbitPerSecond(String codec, String options, int kbps) {
        Map<String, String> o = new java.util.LinkedHashMap<>();
        for (String kv : options.split(";")) {
            if (!kv.isBlank())
                o.put(
                        kv.substring(0, kv.indexOf('=')).trim(),
                        kv.substring(kv.indexOf('=') + 1).trim());
        }
        assertEquals(kbps, new FfmpegEncoder("x", "matroska", codec, o, Map.of(), 0).bitrate());
    }

    @Test
    void unknownCodecsAndOptionsAreRefusedWithTheirNames() {
        IllegalArgumentException codec =
                assertThrows(
                        IllegalArgumentException.class,
                        () ->
                                new FfmpegEncoder("x", "mp3", "libmp4lame", Map.of(), Map.of(), 0)
                                        .validate());
        assertEquals("unknown audio codec 'libmp4lame'", codec.getMessage());
        IllegalArgumentException option =
                assertThrows(
                        IllegalArgumentException.class,
                        () ->
                                new FfmpegEncoder(
                                                "x",
                                                "mp3",
                                                "libmp3lame",
                                                Map.of("bitrat", "1"),
                                                Map.of(),
                                                0)
                                        .validate());
        assertTrue(
                option.getMessage().contains("unknown option bitrat for codec libmp3lame"),
                option.getMessage());
        IllegalArgumentException format =
                assertThrows(
                        IllegalArgumentException.class,
                        () ->
                                new FfmpegEncoder("x", "mp9", "libmp3lame", Map.of(), Map.of(), 0)
                                        .validate());
        assertTrue(format.getMessage().contains("unknown format 'mp9'"), format.getMessage());
    }
}
