package org.groovecast.liquidsoap.prelude;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.groovecast.liquidsoap.eval.Liq;
import org.junit.jupiter.api.Test;

/** yaml.stringify and let yaml.parse. */
class YamlFunctionsTest {
    @Test
    void valuesAreWrittenAsBlockYaml() {
        assertEquals(
                "\"name: Groovecast FM\\nbitrates:\\n- 128\\n- 64\\nlive: false\\nratio: 0.5\\n\"",
                Liq.value(
                        "yaml.stringify({name=\"Groovecast FM\", bitrates=[128, 64], live=false, ratio=0.5})"));
        assertTrue(
                Liq.error("yaml.stringify(layout_style=\"round\", 1)")
                        .contains("Invalid layout style"));
    }

    @Test
    void documentsAreReadAsTheTypeWritten() {
        assertEquals(
                "{dj=null, mounts=[{bitrate=128.0, name=\"/radio\"}], station=\"x\"}",
                Liq.value(
                        "let yaml.parse (c : {station: string, mounts: [{name: string, bitrate: float}],"
                                + " dj: string?}) = \"station: x\\nmounts:\\n  - name: /radio\\n    bitrate: 128\\n\"\n"
                                + "c"));
        assertTrue(
                Liq.error("let yaml.parse (c : {a: int}) = \"a: [1\"\nc").contains("Parse error"));
        assertTrue(
                Liq.error("let yaml.parse (c : {a: int}) = \"a: b\"\nc")
                        .contains("yaml value cannot be parsed as type"));
        Registered.withTypes("yaml.stringify");
    }
}
