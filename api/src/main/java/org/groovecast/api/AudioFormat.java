package org.groovecast.api;

/**
 * The PCM layout of every frame on a clock: planar float samples in [-1, 1].
 *
 * @param sampleRate samples per second and channel
 * @param channels number of planes in a frame
 */
public record AudioFormat(int sampleRate, int channels) {
    /** 44.1 kHz stereo, the default of {@code settings.audio}. */
    public static final AudioFormat DEFAULT = new AudioFormat(44_100, 2);

    public AudioFormat {
        if (sampleRate <= 0)
            throw new IllegalArgumentException("sample rate must be positive, got " + sampleRate);
        if (channels <= 0)
            throw new IllegalArgumentException("channels must be positive, got " + channels);
    }

    /** Samples per channel in {@code seconds}, rounded to the nearest sample. */
    public long samples(double seconds) {
        return Math.round(seconds * sampleRate);
    }

    /** Duration in seconds of {@code samples} samples per channel. */
    public double seconds(long samples) {
        return (double) samples / sampleRate;
    }
}
