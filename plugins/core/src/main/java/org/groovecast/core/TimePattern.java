package org.groovecast.core;

import java.time.ZonedDateTime;
import java.util.Map;

/**
 * Expands file path patterns: strftime fields ({@code /archive/%Y-%m-%d/%H-%M.mp3}) and metadata
 * fields ({@code %{title}}, empty when absent; path separators in values become '_').
 */
final class TimePattern {
    private TimePattern() {}

    static String format(String pattern, ZonedDateTime t) {
        return format(pattern, t, Map.of());
    }

    static String format(String pattern, ZonedDateTime t, Map<String, String> metadata) {
        if (pattern.indexOf('%') < 0) return pattern;
        StringBuilder out = new StringBuilder(pattern.length() + 16);
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c != '%' || i + 1 == pattern.length()) {
                out.append(c);
                continue;
            }
            char f = pattern.charAt(++i);
            switch (f) {
                case 'Y' -> out.append(t.getYear());
                case 'm' -> two(out, t.getMonthValue());
                case 'd' -> two(out, t.getDayOfMonth());
                case 'H' -> two(out, t.getHour());
                case 'M' -> two(out, t.getMinute());
                case 'S' -> two(out, t.getSecond());
                case 'j' -> out.append(String.format("%03d", t.getDayOfYear()));
                case 's' -> out.append(t.toEpochSecond());
                case '%' -> out.append('%');
                case '{' -> {
                    int close = pattern.indexOf('}', i);
                    if (close < 0) {
                        out.append("%{");
                    } else {
                        String v = metadata.getOrDefault(pattern.substring(i + 1, close), "");
                        out.append(v.replace('/', '_').replace('\0', '_'));
                        i = close;
                    }
                }
                default -> out.append('%').append(f);
            }
        }
        return out.toString();
    }

    private static void two(StringBuilder out, int v) {
        if (v < 10) out.append('0');
        out.append(v);
    }
}
