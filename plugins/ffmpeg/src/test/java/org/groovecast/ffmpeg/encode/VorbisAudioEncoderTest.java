package org.groovecast.ffmpeg.encode;

import static org.bytedeco.ffmpeg.global.avcodec.AV_CODEC_ID_VORBIS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.sun.management.ThreadMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.Encoder;
import org.groovecast.api.Frame;
import org.groovecast.api.Metadata;
import org.groovecast.api.VideoFormat;
import org.groovecast.ffmpeg.Fixtures;
import org.groovecast.ffmpeg.decode.MediaDecoder;
import org.groovecast.testkit.OperatorCall;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Vorbis through the system's libvorbisenc (libvorbisenc2 is installed wherever the tests run):
 * libVorbis's own headers, streams that FFmpeg decodes without a complaint, quality and bit rate
 * honoured, chained Ogg kept, nothing allocated per tick; and without the library, FFmpeg's native
 * encoder after one warning.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class VorbisAudioEncoderTest {
    static final AudioFormat FORMAT = EncoderTest.FORMAT;

    private static FfmpegEncoder vorbis(Map<String, Object> named) {
        return (FfmpegEncoder)
                OperatorCall.call(OperatorCall.find("vorbis", new EncoderOperators()), named);
    }

    @Test
    void theSystemLibvorbisIsFound() {
        Vorbisenc v = Vorbisenc.system();
        assertNotNull(v, "no system " + Vorbisenc.LIBRARY);
        assertTrue(v.version.startsWith("Xiph.Org libVorbis"), v.version);
    }

    @Test
    void vorbisIsLibvorbisWhoseCommentHeaderNamesItself() throws IOException {
        try (AudioEncoder e = vorbis(Map.of()).newAudioEncoder(FORMAT, true)) {
            VorbisAudioEncoder v = assertInstanceOf(VorbisAudioEncoder.class, e);
            assertEquals(AV_CODEC_ID_VORBIS, v.context().codec_id());
            byte[] extra = new byte[v.context().extradata_size()];
            v.context().extradata().get(extra);
            String headers = new String(extra, StandardCharsets.ISO_8859_1);
            // Identification, comment (libVorbis's vendor string), setup; not Lavc's
            assertTrue(headers.contains("\u0001vorbis"), "identification header");
            int comment = headers.indexOf("\u0003vorbis");
            assertTrue(comment > 0, "comment header");
            // After the packet type and "vorbis", the vendor string's 32-bit length, then it.
            assertTrue(
                    headers.startsWith("Xiph.Org libVorbis I", comment + 7 + 4),
                    headers.substring(comment, comment + 60));
            assertTrue(headers.contains("\u0005vorbis"), "setup header");
            assertTrue(!headers.contains("Lavc"), "FFmpeg's native encoder's vendor");
        }
    }

    /**
     * A 440 Hz tone under noise at -30 dB, so that the rate the encoder spends depends on what it
     * is asked.
     */
    static void encodeMusic(Encoder encoder, Path file, double seconds) throws IOException {
        Files.createDirectories(file.getParent());
        Random noise = new Random(26);
        try (FileChannel ch =
                        FileChannel.open(
                                file,
                                StandardOpenOption.CREATE,
                                StandardOpenOption.WRITE,
                                StandardOpenOption.TRUNCATE_EXISTING);
                Encoder.Session s = encoder.open(FORMAT, ch)) {
            Frame f = new Frame(FORMAT, 882);
            long t = 0;
            for (int i = 0; i < seconds * 50; i++) {
                EncoderTest.sine(f, t);
                for (int c = 0; c < 2; c++) {
                    for (int k = 0; k < 882; k++)
                        f.channel(c)[k] += (float) (0.03 * noise.nextGaussian());
                }
                t += 882;
                s.encode(f);
            }
        }
    }

    /** What {@code ffmpeg -v error} says decoding {@code file} to nothing: empty when clean. */
    static String decodeErrors(Path file) throws IOException, InterruptedException {
        Process p =
                new ProcessBuilder(
                                "ffmpeg",
                                "-nostdin",
                                "-v",
                                "error",
                                "-i",
                                file.toString(),
                                "-f",
                                "null",
                                "-")
                        .redirectErrorStream(true)
                        .start();
        String out = new String(p.getInputStream().readAllBytes()).strip();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        return p.exitValue() == 0 ? out : "exit " + p.exitValue() + ": " + out;
    }

    static double kbps(Path file, double seconds) throws IOException {
        return Files.size(file) * 8 / seconds / 1000;
    }

    @Test
    void aBitRateIsHonouredAndTheStreamDecodesCleanly() throws Exception {
        Path file = Fixtures.DIR.resolve("libvorbis-128.ogg");
        FfmpegEncoder e = vorbis(Map.of("bitrate", 128));
        assertEquals(128, e.bitrate(), "icy-br");
        encodeMusic(e, file, 6);
        assertEquals("", decodeErrors(file));
        assertEquals(
                "vorbis\n44100\n2\n128000",
                Fixtures.probe(file, "stream=codec_name,sample_rate,channels,bit_rate"),
                "the identification header's nominal rate");
        double kbps = kbps(file, 6);
        assertTrue(Math.abs(kbps - 128) < 128 * 0.15, "about 128 kbit/s: " + kbps);
        try (MediaDecoder d = MediaDecoder.open(file.toString(), FORMAT)) {
            float[] pcm = Fixtures.decodeAll(d);
            // The last packet's granule cuts the stream at the last sample given.
            assertEquals(6 * 44100, pcm.length, 1024, "decoded samples");
            assertEquals(0.3, amplitude(pcm, 440, 4410, pcm.length - 4410), 0.01, "the tone");
        }
    }

    /** The amplitude of {@code pcm}'s component at {@code hz} over [from, to). */
    static double amplitude(float[] pcm, double hz, int from, int to) {
        double sin = 0;
        double cos = 0;
        for (int i = from; i < to; i++) {
            double w = 2 * Math.PI * hz * i / 44100.0;
            sin += pcm[i] * Math.sin(w);
            cos += pcm[i] * Math.cos(w);
        }
        return 2 * Math.hypot(sin, cos) / (to - from);
    }

    @Test
    void qualityIsHonoured() throws Exception {
        Path low = Fixtures.DIR.resolve("libvorbis-q0.ogg");
        Path high = Fixtures.DIR.resolve("libvorbis-q8.ogg");
        FfmpegEncoder q0 = vorbis(Map.of("quality", 0.0));
        FfmpegEncoder q8 = vorbis(Map.of("quality", 0.8));
        assertEquals(0, q8.bitrate(), "no nominal rate in quality mode");
        encodeMusic(q0, low, 6);
        encodeMusic(q8, high, 6);
        assertEquals("", decodeErrors(low));
        assertEquals("", decodeErrors(high));
        // libvorbis's nominal rates for stereo at 44.1 kHz: q0 64 kbit/s, q8 256 kbit/s.
        assertEquals("64000", Fixtures.probe(low, "stream=bit_rate"));
        assertEquals("256000", Fixtures.probe(high, "stream=bit_rate"));
        double lowKbps = kbps(low, 6);
        double highKbps = kbps(high, 6);
        assertTrue(
                highKbps > 2.5 * lowKbps,
                "q0.8 at " + highKbps + " vs q0 at " + lowKbps + " kbit/s");
        // The default is Liquidsoap's, 0.3 (nominal 112 kbit/s).
        Path standard = Fixtures.DIR.resolve("libvorbis-default.ogg");
        encodeMusic(vorbis(Map.of()), standard, 2);
        assertEquals("112000", Fixtures.probe(standard, "stream=bit_rate"));
    }

    @Test
    void monoFromAStereoStationAndItsOptionsAreJudged() throws Exception {
        try (AudioEncoder e =
                AudioEncoder.open("libvorbis", Map.of("ac", "1", "q", "4"), 0, FORMAT, true)) {
            assertEquals(1, e.context().ch_layout().nb_channels());
        }
        assertEquals(
                new VorbisAudioEncoder.Settings(0.5f, 0, -1, -1),
                VorbisAudioEncoder.Settings.of(Map.of("q", "5")));
        assertEquals(
                new VorbisAudioEncoder.Settings(0, 96000, 64000, 160000),
                VorbisAudioEncoder.Settings.of(
                        Map.of("b", "96k", "minrate", "64000", "maxrate", "160k")));
        for (Map<String, String> bad :
                List.of(
                        Map.of("q", "11"),
                        Map.of("q", "loud"),
                        Map.of("q", "5", "b", "128k"),
                        Map.of("maxrate", "128k"),
                        Map.of("b", "2k"))) {
            assertThrows(
                    IllegalArgumentException.class,
                    () -> VorbisAudioEncoder.Settings.of(bad),
                    bad.toString());
        }
        IllegalArgumentException unknown =
                assertThrows(
                        IllegalArgumentException.class,
                        () -> AudioEncoder.open("libvorbis", Map.of("qq", "5"), 0, FORMAT, true));
        assertTrue(unknown.getMessage().contains("qq"), unknown.getMessage());
    }

    @Test
    void eachTitleIsANewLogicalStreamThatDecodesCleanly() throws Exception {
        FfmpegEncoder e = vorbis(Map.of("bitrate", 96));
        Path file = Fixtures.DIR.resolve("libvorbis-chained.ogg");
        Files.createDirectories(file.getParent());
        try (FileChannel out =
                FileChannel.open(
                        file,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE,
                        StandardOpenOption.TRUNCATE_EXISTING)) {
            Frame f = new Frame(FORMAT, 882);
            long t = 0;
            for (String title : new String[] {"First", "Second"}) {
                try (Encoder.Session s =
                        e.open(FORMAT, VideoFormat.DEFAULT, out, Metadata.of("title", title))) {
                    for (int i = 0; i < 100; i++, t += 882) s.encode(EncoderTest.sine(f, t));
                }
            }
        }
        byte[] b = Files.readAllBytes(file);
        String text = new String(b, StandardCharsets.ISO_8859_1).toLowerCase();
        assertTrue(text.indexOf("title=second") > text.indexOf("title=first"));
        int beginnings = 0;
        for (int i = 0; i + 6 < b.length; i++) {
            if (b[i] == 'O' && b[i + 1] == 'g' && b[i + 2] == 'g' && b[i + 3] == 'S') {
                if ((b[i + 5] & 0x02) != 0) beginnings++;
            }
        }
        assertEquals(2, beginnings, "two logical streams");
        assertEquals("", decodeErrors(file));
    }

    @Test
    void encodingATickAllocatesNothingOnTheJavaHeap() throws IOException {
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        long[] bytes = new long[1];
        AudioEncoder.PacketSink sink = (p, tb) -> bytes[0] += p.size();
        for (Map<String, String> options : List.of(Map.of("q", "3"), Map.of("ac", "1"))) {
            try (AudioEncoder e =
                    AudioEncoder.openVorbis(options, 0, FORMAT, true, Vorbisenc.system())) {
                Frame f = EncoderTest.sine(new Frame(FORMAT, 882), 0);
                for (int i = 0; i < 3000; i++) e.encode(f, sink); // the JIT has compiled the path
                long before = threads.getCurrentThreadAllocatedBytes();
                for (int i = 0; i < 1000; i++) e.encode(f, sink);
                long allocated = threads.getCurrentThreadAllocatedBytes() - before;
                assertTrue(bytes[0] > 0);
                assertTrue(
                        allocated < 1000, allocated + " bytes allocated in 1000 ticks " + options);
            }
        }
    }

    @Test
    void withoutLibvorbisencFfmpegsNativeEncoderServesAfterOneWarning() throws Exception {
        Logger logger = (Logger) org.slf4j.LoggerFactory.getLogger(Vorbisenc.class);
        ListAppender<ILoggingEvent> events = new ListAppender<>();
        events.start();
        logger.addAppender(events);
        try {
            Vorbisenc absent = Vorbisenc.load("/nonexistent/libvorbisenc.so.2");
            assertNull(absent);
            for (int i = 0; i < 2; i++) { // a second track, a reconnection: no second warning
                try (AudioEncoder e =
                        AudioEncoder.openVorbis(Map.of("b", "128k"), 0, FORMAT, true, absent)) {
                    FfmpegAudioEncoder f = assertInstanceOf(FfmpegAudioEncoder.class, e);
                    assertEquals(AV_CODEC_ID_VORBIS, f.context().codec_id());
                    long[] bytes = new long[1];
                    Frame frame = new Frame(FORMAT, 882);
                    for (int k = 0; k < 100; k++)
                        e.encode(
                                EncoderTest.sine(frame, k * 882L), (p, tb) -> bytes[0] += p.size());
                    e.finish((p, tb) -> bytes[0] += p.size());
                    assertTrue(bytes[0] > 0);
                }
            }
            List<String> warned =
                    events.list.stream()
                            .filter(ev -> ev.getLevel() == Level.WARN)
                            .map(ILoggingEvent::getFormattedMessage)
                            .toList();
            assertEquals(1, warned.size(), warned.toString());
            assertTrue(
                    warned.getFirst().contains("/nonexistent/libvorbisenc.so.2")
                            && warned.getFirst().contains(Vorbisenc.DOWNGRADE),
                    warned.getFirst());
            assertNull(Vorbisenc.load("bundled"), "asked for FFmpeg's");
            assertEquals(1, events.list.stream().filter(ev -> ev.getLevel() == Level.WARN).count());
        } finally {
            logger.detachAppender(events);
        }
    }
}
