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
    void localTimesAreInTheSystemZoneAndOffsetsOrZonesAreKept() {
        assertEquals(LocalDateTime.of(2025, 1, 6, 5, 59, 55).atZone(ZoneId.systemDefault()), StartTime.parse("2025-01-06T05:59:55"));
        assertEquals(ZonedDateTime.of(2025, 1, 6, 5, 59, 55, 0, ZoneOffset.ofHours(1)), StartTime.parse("2025-01-06T05:59:55+01:00"));
        assertEquals(ZoneId.of("Europe/Paris"), StartTime.parse("2025-07-01T12:00:00+02:00[Europe/Paris]").getZone());
        assertNull(StartTime.parse(" "));
        assertThrows(IllegalArgumentException.class, () -> StartTime.parse("tomorrow"));
    }

    @Test
    void streamTimeIsExactOverAYearOfFramesThatAreNoWholeNumberOfNanoseconds() {
        ClockConfig config = new ClockConfig(new AudioFormat(44_100, 2), 1000, 0, 0, 0); // 22.675736961... ms per frame
        assertEquals(22_675_736L, config.streamNanos(1));
        long tenSeconds = 441; // 441,000 samples
        long year = 365L * 24 * 360;
        assertEquals(year * 10_000_000_000L, config.streamNanos(tenSeconds * year));
    }
}
