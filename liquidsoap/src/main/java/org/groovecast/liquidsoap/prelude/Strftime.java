package org.groovecast.liquidsoap.prelude;

import java.time.ZonedDateTime;
import java.time.format.TextStyle;
import java.util.Locale;

/** The strftime patterns {@code time.string} and file names take: {@code %Y-%m-%d %H:%M:%S}. */
public final class Strftime {
    private Strftime() {}

    public static String format(String pattern, ZonedDateTime t) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c != '%' || i + 1 >= pattern.length()) {
                out.append(c);
                continue;
            }
            char d = pattern.charAt(++i);
            switch (d) {
                case 'Y' -> out.append(t.getYear());
                case 'y' -> out.append(String.format("%02d", t.getYear() % 100));
                case 'm' -> out.append(String.format("%02d", t.getMonthValue()));
                case 'd' -> out.append(String.format("%02d", t.getDayOfMonth()));
                case 'e' -> out.append(String.format("%2d", t.getDayOfMonth()));
                case 'H' -> out.append(String.format("%02d", t.getHour()));
                case 'I' -> out.append(String.format("%02d", (t.getHour() + 11) % 12 + 1));
                case 'M' -> out.append(String.format("%02d", t.getMinute()));
                case 'S' -> out.append(String.format("%02d", t.getSecond()));
                case 'p' -> out.append(t.getHour() < 12 ? "AM" : "PM");
                case 'A' ->
                        out.append(t.getDayOfWeek().getDisplayName(TextStyle.FULL, Locale.ENGLISH));
                case 'a' ->
                        out.append(
                                t.getDayOfWeek().getDisplayName(TextStyle.SHORT, Locale.ENGLISH));
                case 'B' -> out.append(t.getMonth().getDisplayName(TextStyle.FULL, Locale.ENGLISH));
                case 'b', 'h' ->
                        out.append(t.getMonth().getDisplayName(TextStyle.SHORT, Locale.ENGLISH));
                case 'j' -> out.append(String.format("%03d", t.getDayOfYear()));
                case 'u' -> out.append(t.getDayOfWeek().getValue());
                case 'w' -> out.append(t.getDayOfWeek().getValue() % 7);
                case 'z' ->
                        out.append(
                                t.getOffset().getId().equals("Z")
                                        ? "+0000"
                                        : t.getOffset().getId().replace(":", ""));
                case 'Z' -> out.append(t.getZone().getDisplayName(TextStyle.SHORT, Locale.ENGLISH));
                case 's' -> out.append(t.toEpochSecond());
                case 'F' ->
                        out.append(
                                String.format(
                                        "%d-%02d-%02d",
                                        t.getYear(), t.getMonthValue(), t.getDayOfMonth()));
                case 'T' ->
                        out.append(
                                String.format(
                                        "%02d:%02d:%02d",
                                        t.getHour(), t.getMinute(), t.getSecond()));
                case '%' -> out.append('%');
                default -> out.append('%').append(d);
            }
        }
        return out.toString();
    }
}
