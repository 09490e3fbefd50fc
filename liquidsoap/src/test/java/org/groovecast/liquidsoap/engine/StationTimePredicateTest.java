package org.groovecast.liquidsoap.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.groovecast.host.Station;
import org.groovecast.host.plugin.OperatorPlugins;
import org.junit.jupiter.api.Test;

/**
 * A time predicate of any shape reads the station's time on the clock, as AzuraCast's schedules
 * ({@code { (1w or 2w or 3w or 4w or 5w) and 6h0m-10h0m }}) need when the station's clock does not
 * start at the wall clock's time ({@code clock.startTime}). Two start times the wall clock cannot
 * both match: each must give its own answer.
 */
class StationTimePredicateTest {
    private static final OperatorPlugins PLUGINS =
            OperatorPlugins.load(ShippedStation.pluginsDir());

    private static final String SCRIPT =
            """
            log.level := 4
            s = switch(track_sensitive=false, [
              ({ (1w or 2w or 3w or 4w or 5w) and 6h0m-10h0m }, sine(660.)),
              ({ true }, sine(440.))
            ])
            seen = ref(false)
            compound = { (3w) and 9h-10h }
            plain = { 9h-10h }
            def look() =
              if not seen() then
                seen := true
                log.info("compound #{compound()} plain #{plain()}")
              end
            end
            source.methods(s).on_frame(synchronous=true, look)
            output.dummy(mksafe(s))
            """;

    private static List<String> seen(String startTime) throws InterruptedException {
        Station station =
                Station.load(
                        "schedule.liq",
                        SCRIPT,
                        PLUGINS.functions(),
                        Map.of("clock.sync", "none", "clock.startTime", startTime));
        station.start(Duration.ofMillis(200));
        assertTrue(station.awaitStopped(Duration.ofSeconds(30)));
        return station.scriptLog().recent().stream().filter(l -> l.contains("compound")).toList();
    }

    @Test
    void compoundTimePredicatesReadTheStationsClock() throws InterruptedException {
        assertEquals(List.of("info: compound true plain true"), seen("2026-12-02T09:30:00"));
        assertEquals(List.of("info: compound false plain false"), seen("2026-12-06T23:30:00"));
    }
}
