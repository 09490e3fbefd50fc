package org.groovecast.ffmpeg.encode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.groovecast.ffmpeg.Fixtures;
import org.groovecast.ffmpeg.decode.MediaDecoder;
import org.groovecast.testkit.OperatorCall;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * AzuraCast's AAC, {@code libfdk_aac} with {@code profile="aac_he_v2"}, where FFmpeg has no
 * libfdk_aac (the bundled build): FFmpeg's native AAC-LC at the same bit rate, one warning naming
 * the downgrade, and an ADTS stream ffprobe reads as such. Where the system's libfdk-aac is
 * installed it encodes instead ({@link FdkAacAudioEncoderTest}).
 */
class FdkAacFallbackTest {
    private final Logger logger = (Logger) LoggerFactory.getLogger(EncoderOperators.class);
    private final ListAppender<ILoggingEvent> warnings = new ListAppender<>();

    @BeforeEach
    void capture() {
        warnings.start();
        logger.addAppender(warnings);
    }

    @AfterEach
    void release() {
        logger.detachAppender(warnings);
    }

    private static FfmpegEncoder ffmpeg(Map<String, Object> audio) {
        return (FfmpegEncoder)
                OperatorCall.call(
                        OperatorCall.find("ffmpeg", new EncoderOperators()),
                        Map.of("format", "adts", "audio", audio));
    }

    private List<String> warned() {
        return warnings.list.stream()
                .filter(e -> e.getLevel() == Level.WARN)
                .map(ILoggingEvent::getFormattedMessage)
                .toList();
    }

    @Test
    void heAacV2BecomesNativeAacLcAtTheSameRateWithOneWarning() throws Exception {
        assumeTrue(FdkAac.system() == null, "libfdk-aac is installed: FdkAacAudioEncoderTest");
        FfmpegEncoder e =
                ffmpeg(
                        Map.of(
                                "codec", "libfdk_aac",
                                "ar", "44100",
                                "ac", "2",
                                "b", "64k",
                                "profile", "aac_he_v2",
                                "afterburner", "0"));
        Path file = Fixtures.DIR.resolve("fdk-fallback.aac");
        EncoderTest.encode(e, file, 3);
        EncoderTest.encode(e, file, 3); // a second run of the same encoder (a reconnection)

        assertEquals(
                List.of(
                        "ffmpeg(): libfdk_aac is not available (this FFmpeg is built without it): "
                                + "FFmpeg's native AAC-LC at 64k instead of HE-AACv2 (profile=aac_he_v2)"),
                warned());
        assertEquals("aac", e.codec());
        assertEquals(64, e.bitrate());
        assertEquals("aac", Fixtures.probe(file, "stream=codec_name").strip());
        assertEquals("LC", Fixtures.probe(file, "stream=profile").strip());
        // FFmpeg's ADTS demuxer is called aac; the file begins with an ADTS sync word.
        assertEquals("aac", Fixtures.probe(file, "format=format_name").strip());
        byte[] head = java.nio.file.Files.readAllBytes(file);
        assertTrue((head[0] & 0xff) == 0xff && (head[1] & 0xf0) == 0xf0, "ADTS sync word");
        assertEquals("44100", Fixtures.probe(file, "stream=sample_rate").strip());
        assertEquals("2", Fixtures.probe(file, "stream=channels").strip());
        double seconds;
        try (MediaDecoder d = MediaDecoder.open(file.toString(), EncoderTest.FORMAT)) {
            float[] pcm = Fixtures.decodeAll(d);
            seconds = pcm.length / 44100.0;
            assertEquals(3.0, seconds, 0.1, "decoded length");
            assertEquals(440, Fixtures.frequency(pcm, 4410, pcm.length - 4410, 44100), 3);
        }
        double kbps = java.nio.file.Files.size(file) * 8 / seconds / 1000;
        assertTrue(Math.abs(kbps - 64) < 8, "about 64 kbit/s: " + kbps);
    }

    @Test
    void anotherCodecIsLeftAlone() {
        FfmpegEncoder e = ffmpeg(Map.of("codec", "aac", "b", "64k"));
        assertEquals("aac", e.codec());
        assertEquals(List.of(), warned());
    }

    @Test
    void libfdkAacsLcProfileIsNamedToo() {
        assumeTrue(FdkAac.system() == null, "libfdk-aac is installed: FdkAacAudioEncoderTest");
        ffmpeg(Map.of("codec", "libfdk_aac", "b", "128k"));
        assertEquals(
                List.of(
                        "ffmpeg(): libfdk_aac is not available (this FFmpeg is built without it): "
                                + "FFmpeg's native AAC-LC at 128k instead of libfdk_aac's AAC-LC"),
                warned());
    }
}
