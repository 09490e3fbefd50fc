package org.groovecast.ffmpeg.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.Frame;
import org.groovecast.ffmpeg.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class MediaDecoderTest {
    static final AudioFormat FORMAT = new AudioFormat(44100, 2);

    static Stream<Arguments> formats() {
        return Stream.of(
                Arguments.of("tone.mp3", new String[] {"-c:a", "libmp3lame", "-b:a", "128k"}),
                Arguments.of("tone.m4a", new String[] {"-c:a", "aac", "-b:a", "96k"}),
                Arguments.of("tone.ogg", new String[] {"-c:a", "libvorbis"}),
                Arguments.of("tone.opus", new String[] {"-c:a", "libopus", "-b:a", "64k"}),
                Arguments.of("tone.flac", new String[] {"-c:a", "flac"}),
                Arguments.of("tone.wav", new String[] {"-c:a", "pcm_s16le"}));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("formats")
    void decodesEverySupportedFormatToTheClockFormat(String name, String[] codec)
            throws IOException {
        Path file = Fixtures.tone(name, 440, 3, "Tone " + name, codec);
        try (MediaDecoder d = MediaDecoder.open(file.toString(), FORMAT)) {
            float[] pcm = Fixtures.decodeAll(d);
            double seconds = pcm.length / 44100.0;
            assertEquals(3.0, seconds, 0.06, name + " duration");
            double f = Fixtures.frequency(pcm, 4410, pcm.length - 4410, 44100);
            assertEquals(440, f, 3, name + " frequency");
            assertEquals("Tone " + name, d.tags().get("title"), name + " tags " + d.tags());
            assertEquals("Groovecast Tests", d.tags().get("artist"));
        }
    }

    @Test
    void resamplesToAnotherRateAndChannelCount() throws IOException {
        Path file = Fixtures.tone("tone48.flac", 1000, 2, "x", "-ar", "48000", "-c:a", "flac");
        AudioFormat mono22 = new AudioFormat(22050, 1);
        try (MediaDecoder d = MediaDecoder.open(file.toString(), mono22)) {
            Frame frame = new Frame(mono22, 441);
            float[] all = new float[22050 * 3];
            int n = 0;
            int got;
            while (true) {
                frame.clear();
                if ((got = d.read(frame, 441, 0)) == 0) break;
                System.arraycopy(frame.channel(0), 0, all, n, got);
                n += got;
            }
            assertEquals(2.0, n / 22050.0, 0.03);
            assertEquals(1000, Fixtures.frequency(all, 2205, n - 2205, 22050), 5);
        }
    }

    @Test
    void aMissingOrNonMediaFileFailsToOpenWithAReason() throws IOException {
        IOException missing =
                assertThrows(
                        IOException.class, () -> MediaDecoder.open("/nonexistent/x.mp3", FORMAT));
        assertTrue(missing.getMessage().startsWith("cannot open"), missing.getMessage());
        Path text = Fixtures.DIR.resolve("notes.mp3");
        Files.createDirectories(Fixtures.DIR);
        Files.writeString(text, "this is a text file, not an mp3\n".repeat(20));
        assertThrows(IOException.class, () -> MediaDecoder.open(text.toString(), FORMAT));
    }
}
