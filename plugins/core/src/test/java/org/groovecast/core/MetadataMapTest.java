package org.groovecast.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.groovecast.api.Metadata;
import org.groovecast.api.Source;
import org.groovecast.api.UserFunction;
import org.groovecast.testkit.FramePuller;
import org.groovecast.testkit.MetadataAt;
import org.groovecast.testkit.OperatorCall;
import org.groovecast.testkit.TestSource;
import org.junit.jupiter.api.Test;

/** metadata.map: each metadata passing through is rewritten where it arrives. */
class MetadataMapTest {
    static List<MetadataAt> mapped(Map<String, ?> named, UserFunction mapper) {
        Source s =
                OperatorCall.source(
                        new MetadataOperators(),
                        "metadata.map",
                        named,
                        TestSource.level(0.1).tracks(0.1).titled("song"),
                        mapper);
        return new FramePuller(s).pullSeconds(0.3).metadata();
    }

    @Test
    void mergesTheResultIntoEachMetadataWhereItArrives() {
        List<MetadataAt> got = mapped(Map.of(), args -> Map.of("artist", "A"));
        assertEquals(
                List.of(
                        new MetadataAt(0, 0, Metadata.of("title", "song 1", "artist", "A")),
                        new MetadataAt(5, 4_410, Metadata.of("title", "song 2", "artist", "A")),
                        new MetadataAt(10, 8_820, Metadata.of("title", "song 3", "artist", "A"))),
                got);
    }

    @Test
    void theFunctionSeesTheMetadataAndWithoutUpdateReplacesIt() {
        List<MetadataAt> got =
                mapped(
                        Map.of("update", false),
                        args -> Map.of("title", ((Metadata) args[0]).get("title").toUpperCase()));
        assertEquals(
                List.of(
                        Metadata.of("title", "SONG 1"),
                        Metadata.of("title", "SONG 2"),
                        Metadata.of("title", "SONG 3")),
                got.stream().map(MetadataAt::metadata).toList());
    }

    @Test
    void stripRemovesEmptyValuesAndDropsWhatIsLeftEmpty() {
        assertEquals(List.of(), mapped(Map.of("strip", true), args -> Map.of("title", "")));
        List<MetadataAt> kept =
                mapped(Map.of("strip", true), args -> Map.of("title", "", "album", "B"));
        assertEquals(Metadata.of("album", "B"), kept.getFirst().metadata());
    }

    @Test
    void aFailingFunctionLeavesTheMetadataAsItCame() {
        List<MetadataAt> got =
                mapped(
                        Map.of(),
                        args -> {
                            throw new IllegalStateException("a script's mistake");
                        });
        assertEquals(Metadata.of("title", "song 1"), got.getFirst().metadata());
        assertEquals(3, got.size());
    }
}
