package org.groovecast.liquidsoap.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.groovecast.host.Station;
import org.groovecast.host.plugin.OperatorPlugins;
import org.junit.jupiter.api.Test;

/**
 * Settings the generated AzuraCast script sets: the one info line "has no use for: ignored" only
 * for those Groovecast does not read. {@code settings.autocue.preferred} is read (it chooses the
 * implementation autocue.register keeps), so it is not said to be ignored.
 */
class IgnoredSettingsTest {
    private static final OperatorPlugins PLUGINS =
            OperatorPlugins.load(ShippedStation.pluginsDir());

    @Test
    void onlyTheSettingsGroovecastDoesNotReadAreToldIgnored() {
        String script =
                """
                settings.autocue.preferred := "internal"
                settings.log.file := false
                output.dummy(blank())
                """;
        Station station = Station.load("settings.liq", script, PLUGINS.functions(), Map.of());
        try {
            List<String> ignored =
                    station.scriptLog().recent().stream()
                            .filter(l -> l.contains("has no use for"))
                            .toList();
            assertEquals(
                    List.of(
                            "info: [settings] settings.log.file is a Liquidsoap setting Groovecast"
                                    + " has no use for: ignored"),
                    ignored);
        } finally {
            station.stop();
        }
    }
}
