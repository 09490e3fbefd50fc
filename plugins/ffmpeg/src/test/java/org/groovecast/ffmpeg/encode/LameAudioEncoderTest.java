package org.groovecast.ffmpeg.encode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.ThreadMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.Frame;
import org.groovecast.ffmpeg.Fixtures;
import org.groovecast.ffmpeg.decode.MediaDecoder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The system LAME through FFM against the bundled FFmpeg's LAME: same stream, same tone, no garbage
 * per tick.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LameAudioEncoderTest {
    static final AudioFormat FORMAT = new AudioFormat(44100, 2);
    static final Map<String, String> MP3_128 = Map.of("b", "128k");

    @Test
    void theSystemLameIsFoundWhereFfmpegIsInstalled() {
        // libmp3lame0 comes with Debian's ffmpeg, which .ci/run installs: not finding it is a
        // defect here.
        Lame lame = Lame.system();
        assertNotNull(lame, "no system " + Lame.LIBRARY);
        assertTrue(lame.version.startsWith("3."), lame.version);
    }

    @Test
    void mp3GoesToTheSystemLameUnlessAnOptionOnlyFfmpegsWrapperTakes() throws IOException {
        try (AudioEncoder e = AudioEncoder.open("libmp3lame", MP3_128, 0, FORMAT, false)) {
            assertInstanceOf(LameAudioEncoder.class, e);
        }
        try (AudioEncoder e =
                AudioEncoder.open(
                        "libmp3lame", Map.of("b", "128k", "abr", "1"), 0, FORMAT, false)) {
            assertInstanceOf(FfmpegAudioEncoder.class, e);
        }
        assertNull(
                LameAudioEncoder.Settings.of(MP3_128, new AudioFormat(44100, 6)),
                "LAME takes one or two channels");
        assertNull(
                LameAudioEncoder.Settings.of(Map.of("b", "lots"), FORMAT),
                "FFmpeg's wrapper names a bad value");
        assertEquals(
                new LameAudioEncoder.Settings(96, 2, true, false, 48000),
                LameAudioEncoder.Settings.of(
                        Map.of("b", "96000", "compression_level", "2", "reservoir", "0"),
                        new AudioFormat(48000, 2)));
    }

    @Test
    void bothEncodersWriteMpeg1LayerIiiAt128kThatDecodesToTheSameTone() throws IOException {
        Path system = Fixtures.DIR.resolve("lame-system.mp3");
        Path bundled = Fixtures.DIR.resolve("lame-bundled.mp3");
        encode(
                AudioEncoder.open("libmp3lame", MP3_128, 0, FORMAT, false, Lame.system()),
                system,
                5);
        encode(AudioEncoder.open("libmp3lame", MP3_128, 0, FORMAT, false, null), bundled, 5);
        for (Path file : new Path[] {system, bundled}) {
            assertEquals(
                    "mp3\n44100\n2\n128000",
                    Fixtures.probe(file, "stream=codec_name,sample_rate,channels,bit_rate"),
                    file.toString());
            assertEquals(1152 * 44100 / 44100, firstFrameSamples(file), file + ": MPEG-1 frames");
        }
        float[] a = decode(system);
        float[] b = decode(bundled);
        assertEquals(b.length, a.length, 1152, "decoded lengths");
        assertEquals(5.0, a.length / 44100.0, 0.1, "decoded seconds");
        int from = 4410;
        int to = Math.min(a.length, b.length) - 4410;
        assertEquals(440, Fixtures.frequency(a, from, to, 44100), 3, "system LAME frequency");
        assertEquals(440, Fixtures.frequency(b, from, to, 44100), 3, "bundled LAME frequency");
        double expected = 20 * Math.log10(0.3 / Math.sqrt(2));
        assertEquals(expected, db(rms(a, from, to)), 0.5, "system LAME level");
        assertEquals(db(rms(b, from, to)), db(rms(a, from, to)), 0.2, "levels of the two");
        // Same encoder, same settings, same delay: the two decodes line up sample for sample.
        float[] diff = new float[to - from];
        for (int i = from; i < to; i++) diff[i - from] = a[i] - b[i];
        double snr = db(rms(a, from, to)) - db(rms(diff, 0, diff.length));
        assertTrue(
                snr > 30, "the two decodes differ by more than coding noise: " + snr + " dB apart");
    }

    @Test
    void encodingATickAllocatesNothingOnTheJavaHeap() throws IOException {
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        long[] packets = new long[1];
        AudioEncoder.PacketSink sink = (p, tb) -> packets[0] += p.size();
        try (AudioEncoder e =
                AudioEncoder.open("libmp3lame", MP3_128, 0, FORMAT, false, Lame.system())) {
            Frame f = EncoderTest.sine(new Frame(FORMAT, 882), 0);
            for (int i = 0; i < 3000; i++) e.encode(f, sink); // warm: the JIT has compiled the path
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 1000; i++) e.encode(f, sink);
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            assertTrue(packets[0] > 0);
            assertTrue(allocated < 1000, allocated + " bytes allocated in 1000 ticks");
        }
    }

    @Test
    void framesAreCutAtTheirHeadersLengths() {
        assertEquals(417, Mp3Frames.length(0xFF, 0xFB, 0x90)); // MPEG-1 L3 128k 44.1 kHz
        assertEquals(418, Mp3Frames.length(0xFF, 0xFB, 0x92)); // padded
        assertEquals(1440, Mp3Frames.length(0xFF, 0xFB, 0xE8)); // 320k 32 kHz
        assertEquals(
                240,
                Mp3Frames.length(0xFF, 0xF3, 0x94)); // MPEG-2 L3 80k 24 kHz: 72000 * 80 / 24000
        assertEquals(-1, Mp3Frames.length(0xFF, 0xFD, 0x90)); // Layer II
        assertEquals(-1, Mp3Frames.length(0xFF, 0xFB, 0xF0)); // bad bitrate index
        assertEquals(-1, Mp3Frames.length(0x49, 0x44, 0x33)); // "ID3"
        assertEquals(1152, Mp3Frames.samples(0xFB));
        assertEquals(576, Mp3Frames.samples(0xF3));
    }

    /** Muxes {@code seconds} of a 440 Hz sine at 0.3 from {@code encoder} into an MP3 file. */
    private static void encode(AudioEncoder encoder, Path file, double seconds) throws IOException {
        Files.createDirectories(file.getParent());
        try (encoder;
                FileChannel ch =
                        FileChannel.open(
                                file,
                                StandardOpenOption.CREATE,
                                StandardOpenOption.WRITE,
                                StandardOpenOption.TRUNCATE_EXISTING);
                Muxer muxer = new Muxer("mp3", Map.of(), encoder.context(), ch)) {
            AudioEncoder.PacketSink sink = muxer::write;
            Frame f = new Frame(FORMAT, 882);
            for (int i = 0; i < seconds * 50; i++)
                encoder.encode(EncoderTest.sine(f, i * 882L), sink);
            encoder.finish(sink);
            muxer.finish();
        }
    }

    /** Samples per frame of the file's first MPEG audio frame (after its ID3v2 tag). */
    private static int firstFrameSamples(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        int at = 0;
        if (bytes[0] == 'I' && bytes[1] == 'D' && bytes[2] == '3') {
            at =
                    10
                            + ((bytes[6] & 0x7F) << 21
                                    | (bytes[7] & 0x7F) << 14
                                    | (bytes[8] & 0x7F) << 7
                                    | bytes[9] & 0x7F);
        }
        assertTrue(
                Mp3Frames.length(bytes[at], bytes[at + 1], bytes[at + 2]) > 0,
                file + ": no frame at " + at);
        return Mp3Frames.samples(bytes[at + 1]);
    }

    private static float[] decode(Path file) throws IOException {
        try (MediaDecoder d = MediaDecoder.open(file.toString(), FORMAT)) {
            return Fixtures.decodeAll(d);
        }
    }

    private static double rms(float[] x, int from, int to) {
        double sum = 0;
        for (int i = from; i < to; i++) sum += (double) x[i] * x[i];
        return Math.sqrt(sum / (to - from));
    }

    private static double db(double v) {
        return 20 * Math.log10(v);
    }
}
