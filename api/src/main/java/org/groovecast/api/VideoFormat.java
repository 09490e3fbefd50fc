package org.groovecast.api;

/**
 * The picture layout of every video image on a clock: {@code width} x {@code height} in planar YUV
 * 4:2:0 (8 bits, limited range, as FFmpeg's {@code yuv420p}), at {@code frameRate} images per
 * second. Set by {@code settings.video.frame.width/height/rate}.
 */
public record VideoFormat(int width, int height, int frameRate) {
    /** 1280x720 at 25 images per second. */
    public static final VideoFormat DEFAULT = new VideoFormat(1280, 720, 25);

    public VideoFormat {
        if (width <= 0 || height <= 0 || width % 2 != 0 || height % 2 != 0) {
            throw new IllegalArgumentException(
                    "video size must be positive and even, got " + width + "x" + height);
        }
        if (frameRate <= 0)
            throw new IllegalArgumentException("frame rate must be positive, got " + frameRate);
    }

    /**
     * Sample position, in a stream of {@code audio}'s rate, at which video frame {@code k} starts.
     */
    public long framePosition(long k, AudioFormat audio) {
        return Math.floorDiv(k * audio.sampleRate(), frameRate);
    }
}
