package org.groovecast.ffmpeg.encode;

import java.util.LinkedHashMap;
import java.util.Map;
import org.groovecast.api.AudioFormat;

/**
 * The channels and rate a script asks an audio stream to be encoded in: {@code ac} / {@code
 * channels} and {@code ar} / {@code samplerate}, as FFmpeg's command line and Liquidsoap's {@code
 * %ffmpeg(%audio(...))} take them for every codec. They are not options of the codec (FFmpeg 7's
 * codecs refuse {@code ac}): the encoder takes them out and converts the station's audio to them.
 * Without them the stream keeps the station's.
 *
 * @param channels the encoded stream's channels
 * @param sampleRate the rate wanted (a codec with fixed rates takes its closest)
 * @param codecOptions the options left for the codec
 */
record StreamShape(int channels, int sampleRate, Map<String, String> codecOptions) {
    static StreamShape of(Map<String, String> options, AudioFormat input) {
        Map<String, String> rest = new LinkedHashMap<>(options);
        int channels = take(rest, input.channels(), 1, 8, "ac", "channels");
        int rate = take(rest, input.sampleRate(), 8000, 384000, "ar", "samplerate");
        return new StreamShape(channels, rate, rest);
    }

    /** Whether the stream is encoded as the station's audio comes. */
    boolean keeps(AudioFormat input) {
        return channels == input.channels() && sampleRate == input.sampleRate();
    }

    private static int take(
            Map<String, String> options, int fallback, int min, int max, String... names) {
        int value = fallback;
        for (String name : names) {
            String v = options.remove(name);
            if (v == null) continue;
            try {
                value = Integer.parseInt(v.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(name + "=" + v + ": not a whole number");
            }
            if (value < min || value > max)
                throw new IllegalArgumentException(
                        name + "=" + v + ": between " + min + " and " + max + " here");
        }
        return value;
    }
}
