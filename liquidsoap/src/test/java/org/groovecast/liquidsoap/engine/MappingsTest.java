package org.groovecast.liquidsoap.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The naming rule, and the table of differences as docs/reference/liquidsoap.md shows it. */
class MappingsTest {
    @Test
    void namesMapWordByWordAndSegmentBySegment() {
        assertEquals("on_metadata", OperatorNames.toLiquidsoap("onMetadata"));
        assertEquals("track_sensitive", OperatorNames.toLiquidsoap("trackSensitive"));
        assertEquals("clock.assign_new", OperatorNames.toLiquidsoap("clock.assignNew"));
        assertEquals("output.file.hls", OperatorNames.toLiquidsoap("output.file.hls"));
        assertEquals("onMetadata", OperatorNames.toGroovecast("on_metadata"));
        assertEquals("clock.assignNew", OperatorNames.toGroovecast("clock.assign_new"));
        assertEquals("flushAndSkip", OperatorNames.toGroovecast("flush_and_skip"));
        assertEquals("_null", OperatorNames.toGroovecast("_null"));
    }

    @Test
    void everyMappedOperatorIsInTheDocsTable() throws IOException {
        String page = Files.readString(Path.of("../docs/reference/liquidsoap.md"));
        Encoders encoders = new Encoders(null);
        for (Mapping m : Mappings.standard(new EngineValues("x.liq", encoders)).all()) {
            assertTrue(
                    page.contains("`" + m.liquidsoap),
                    "docs/reference/liquidsoap.md does not show " + m.liquidsoap);
        }
    }

    @Test
    void engineHintsReadInLiquidsoapSyntax() {
        assertEquals(
                "wrap it in mksafe() or fallback(), or pass fallible=true",
                LiquidsoapScript.inLiquidsoap(
                        "wrap it in mksafe() or fallback(), or pass fallible: true"));
    }

    @Test
    void theSettingsTableNamesEngineKeys() {
        for (Map.Entry<String, String> e : SettingNames.all().entrySet()) {
            assertTrue(e.getValue().matches("[a-z]+(\\.[a-zA-Z]+)+"), e.toString());
        }
    }
}
