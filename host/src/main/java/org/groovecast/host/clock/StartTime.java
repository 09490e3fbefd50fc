package org.groovecast.host.clock;

import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;

/**
 * Reads {@code settings.clock.startTime}: where the clocks' time starts when it is not the wall
 * clock's.
 */
public final class StartTime {
    private StartTime() {}

    /**
     * An ISO-8601 date-time, in {@code zone} (the station's): local ({@code 2025-01-06T05:59:55}),
     * or the instant given with an offset ({@code ...+01:00}) or a zone ({@code
     * ...+01:00[Europe/Paris]}); null for an empty text.
     *
     * @throws IllegalArgumentException when the text is none of these
     */
    public static ZonedDateTime parse(String text, ZoneId zone) {
        String t = text.strip();
        if (t.isEmpty()) return null;
        try {
            return LocalDateTime.parse(t).atZone(zone);
        } catch (DateTimeParseException local) {
            try {
                return ZonedDateTime.parse(t).withZoneSameInstant(zone);
            } catch (DateTimeParseException zoned) {
                throw new IllegalArgumentException(
                        "settings.clock.startTime expects an ISO-8601 date-time such as "
                                + "2025-01-06T05:59:55, got '"
                                + text
                                + "'");
            }
        }
    }
}
