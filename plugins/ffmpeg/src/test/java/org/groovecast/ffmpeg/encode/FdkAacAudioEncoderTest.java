package org.groovecast.ffmpeg.encode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.groovecast.ffmpeg.Fixtures;
import org.groovecast.ffmpeg.decode.MediaDecoder;
import org.groovecast.testkit.OperatorCall;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * libfdk_aac through the system's libfdk-aac, where it is installed (Debian non-free's libfdk-aac2;
 * or {@code -Dgroovecast.fdkaac=/path/to/libfdk-aac.so.2}). Where it is not, as where the tests
 * usually run, this is skipped and {@link FdkAacFallbackTest} holds instead.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FdkAacAudioEncoderTest {
    @Test
    void heAacV2InAdtsThatFfprobeReadsAsSuch() throws Exception {
        assumeTrue(FdkAac.system() != null, "no libfdk-aac here");
        Map<String, Object> audio = new LinkedHashMap<>();
        audio.put("codec", "libfdk_aac");
        audio.put("b", "48k");
        audio.put("profile", "aac_he_v2");
        FfmpegEncoder e =
                (FfmpegEncoder)
                        OperatorCall.call(
                                OperatorCall.find("ffmpeg", new EncoderOperators()),
                                Map.of("format", "adts", "audio", audio));
        assertEquals("libfdk_aac", e.codec(), "no fallback");
        try (AudioEncoder a = e.newAudioEncoder(EncoderTest.FORMAT, false)) {
            assertInstanceOf(FdkAacAudioEncoder.class, a);
        }
        Path file = Fixtures.DIR.resolve("fdk-he-v2.aac");
        VorbisAudioEncoderTest.encodeMusic(e, file, 6);
        assertEquals("", VorbisAudioEncoderTest.decodeErrors(file));
        assertEquals(
                "aac\nHE-AACv2\n44100\n2",
                Fixtures.probe(file, "stream=codec_name,profile,sample_rate,channels"));
        byte[] head = Files.readAllBytes(file);
        assertTrue((head[0] & 0xff) == 0xff && (head[1] & 0xf0) == 0xf0, "ADTS sync word");
        double kbps = VorbisAudioEncoderTest.kbps(file, 6);
        assertTrue(Math.abs(kbps - 48) < 8, "about 48 kbit/s: " + kbps);
        try (MediaDecoder d = MediaDecoder.open(file.toString(), EncoderTest.FORMAT)) {
            float[] pcm = Fixtures.decodeAll(d);
            // ADTS has no place for the encoder's delay: a decoder plays it, about 0.18 s for
            // HE-AACv2 (FDK's core delay at half rate, SBR and PS), before the first sample.
            double seconds = pcm.length / 44100.0;
            assertTrue(seconds >= 6.0 && seconds < 6.25, "decoded length " + seconds);
            assertEquals(
                    0.3,
                    VorbisAudioEncoderTest.amplitude(pcm, 440, 11025, pcm.length - 11025),
                    0.05,
                    "the tone");
        }
    }

    @Test
    void encodingATickAllocatesNothingOnTheJavaHeap() throws Exception {
        assumeTrue(FdkAac.system() != null, "no libfdk-aac here");
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean)
                        java.lang.management.ManagementFactory.getThreadMXBean();
        long[] bytes = new long[1];
        AudioEncoder.PacketSink sink = (p, tb) -> bytes[0] += p.size();
        try (AudioEncoder e =
                AudioEncoder.openFdkAac(
                        Map.of("profile", "aac_he_v2", "b", "48k"),
                        EncoderTest.FORMAT,
                        false,
                        FdkAac.system())) {
            org.groovecast.api.Frame f =
                    EncoderTest.sine(new org.groovecast.api.Frame(EncoderTest.FORMAT, 882), 0);
            for (int i = 0; i < 3000; i++) e.encode(f, sink);
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 1000; i++) e.encode(f, sink);
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            assertTrue(bytes[0] > 0);
            assertTrue(allocated < 1000, allocated + " bytes allocated in 1000 ticks");
        }
    }
}
