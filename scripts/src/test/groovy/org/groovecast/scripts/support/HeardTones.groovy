package org.groovecast.scripts.support

/**
 * What a recording of a station says played, when each kind of track is a tone of its own: the
 * tone heard in each half second, and where one is first heard.
 */
final class HeardTones {
    private HeardTones() {}

    /** The tone heard in each half second of the recording, by name, or null for a mix or silence. */
    static List<String> heard(Wav wav, Map<String, Integer> tones) {
        (0..<(int) (wav.seconds * 2 - 1)).collect { i ->
            double f = wav.frequency(i / 2.0, i / 2.0 + 0.5)
            tones.find { name, tone -> Math.abs(f - tone) < tone * 0.03 }?.key
        }
    }

    /**
     * Where, at or after {@code from} seconds, {@code tone} is first heard for a whole second; -1 if
     * never. A second, not a half: in a crossfade's mix the zero crossings can pass for a third tone.
     */
    static double firstHeard(List<String> heard, String tone, double from = 0) {
        int i = Math.max(0, (int) (from * 2))
        while (i + 1 < heard.size() && !(heard[i] == tone && heard[i + 1] == tone)) i++
        i + 1 < heard.size() ? i / 2.0 : -1
    }
}
