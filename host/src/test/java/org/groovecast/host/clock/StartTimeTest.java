package org.groovecast.host.clock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import org.groovecast.api.AudioFormat;
import org.junit.jupiter.api.Test;

class StartTimeTest {
    @Test
    void localTimesAreInTheStationZoneAndOffsetsOrZonesGiveTheInstantSeenInIt() {
        ZoneId paris = ZoneId.of("Europe/Paris");
        assertEquals(
                LocalDateTime.of(2025, 1, 6, 5, 59, 55).atZone(paris),
                StartTime.parse("2025-01-06T05:59:55", paris));
        assertEquals(
                ZonedDateTime.of(2025, 1, 6, 4, 59, 55, 0, ZoneOffset.UTC),
                StartTime.parse("2025-01-06T05:59:55+01:00", ZoneOffset.UTC));
        assertEquals(
                ZonedDateTime.of(2025, 7, 1, 10, 0, 0, 0, ZoneOffset.UTC),
                StartTime.parse("2025-07-01T12:00:00+02:00[Europe/Paris]", ZoneOffset.UTC));
        assertNull(StartTime.parse(" ", paris));
        assertThrows(IllegalArgumentException.class, () -> StartTime.parse("tomorrow", paris));
    }

    @Test
    void theStationZoneIsTheSystemsUnlessSet() {
        assertEquals(ZoneId.systemDefault(), StationZone.parse(""));
        assertEquals(ZoneId.of("America/New_York"), StationZone.parse(" America/New_York "));
        assertEquals(ZoneOffset.ofHours(2), StationZone.parse("+02:00"));
        IllegalArgumentException e =
                assertThrows(
                        IllegalArgumentException.class, () -> StationZone.parse("Mars/Olympus"));
        assertEquals(
                "settings.time.zone expects a time zone such as Europe/Paris, UTC or +02:00, got 'Mars/Olympus'",
                e.getMessage());
    }

    @Test
    void streamTimeIsExactOverAYearOfFramesThatAreNoWholeNumberOfNanoseconds() {
        ClockConfig config =
                new ClockConfig(
                        new AudioFormat(44_100, 2), 1000, 0, 0, 0); // 22.675736961... ms per frame
        assertEquals(22_675_736L, config.streamNanos(1));
        long tenSeconds = 441; // 441,000 samples
        long year = 365L * 24 * 360;
        assertEquals(year * 10_000_000_000L, config.streamNanos(tenSeconds * year));
    }
}
