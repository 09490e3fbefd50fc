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
 * {@code source(tracks)} from {@code source.tracks(s)} less some tracks: without its metadata track
 * the source carries none, as AzuraCast's drop_metadata ({@code let {metadata=_, ...rest} =
 * source.tracks(s)}) relies on for its jingles.
 */
class SourceTracksTest {
    private static final OperatorPlugins PLUGINS =
            OperatorPlugins.load(ShippedStation.pluginsDir());

    @Test
    void aSourceMadeOfTracksWithoutMetadataCarriesNone() throws InterruptedException {
        String script =
                """
                log.level := 4
                s = sine(440.)
                def tell(name, m) = log.info("#{name} #{m['title']}") end
                let {metadata=_, ...rest} = source.tracks(s)
                without = source(id="without", rest)
                with = source(source.tracks(s))
                without.on_metadata(synchronous=true, fun (m) -> tell("without", m))
                with.on_metadata(synchronous=true, fun (m) -> tell("with", m))
                s.on_frame(synchronous=true, fun () -> s.insert_metadata([("title", "Jingle")]))
                output.dummy(add([without, with]))
                """;
        Station station =
                Station.load(
                        "tracks.liq", script, PLUGINS.functions(), Map.of("clock.sync", "none"));
        station.start(Duration.ofMillis(100));
        assertTrue(station.awaitStopped(Duration.ofSeconds(30)));
        List<String> told =
                station.scriptLog().recent().stream()
                        .filter(l -> l.contains("Jingle"))
                        .map(l -> l.substring(0, l.indexOf(' ', 6)))
                        .distinct()
                        .toList();
        assertEquals(List.of("info: with"), told);
    }
}
