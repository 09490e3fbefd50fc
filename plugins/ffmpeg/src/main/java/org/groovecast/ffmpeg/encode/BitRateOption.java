package org.groovecast.ffmpeg.encode;

/**
 * FFmpeg's {@code b} option as scripts write it ({@code "128k"}, {@code "128000"}), read as kbit/s.
 */
final class BitRateOption {
    private BitRateOption() {}

    /**
     * The value in kbit/s; -1 if it is not one FFmpeg's number syntax gives (left to FFmpeg to
     * judge).
     */
    static int kbps(String v) {
        String t = v.trim();
        try {
            long bits =
                    t.endsWith("k") || t.endsWith("K")
                            ? Long.parseLong(t.substring(0, t.length() - 1)) * 1000
                            : Long.parseLong(t);
            return bits < 0 || bits > 10_000_000 ? -1 : (int) (bits / 1000);
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
