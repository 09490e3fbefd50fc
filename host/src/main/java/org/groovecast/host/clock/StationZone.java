package org.groovecast.host.clock;

import java.time.DateTimeException;
import java.time.ZoneId;

/**
 * Reads {@code settings.time.zone}: the zone in which the station reads its time (schedules, file
 * names).
 */
public final class StationZone {
    private StationZone() {}

    /**
     * A region ({@code Europe/Paris}), {@code UTC}, or an offset ({@code +02:00}); the system's
     * zone for an empty text.
     *
     * @throws IllegalArgumentException when the text names no zone
     */
    public static ZoneId parse(String text) {
        String t = text.strip();
        if (t.isEmpty()) return ZoneId.systemDefault();
        try {
            return ZoneId.of(t);
        } catch (DateTimeException e) {
            throw new IllegalArgumentException(
                    "settings.time.zone expects a time zone such as Europe/Paris, UTC or "
                            + "+02:00, got '"
                            + text
                            + "'");
        }
    }
}
