package org.groovecast.liquidsoap.types;

import static org.groovecast.liquidsoap.types.Check.error;
import static org.groovecast.liquidsoap.types.Check.type;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Only the branch of %ifdef, %ifversion, %ifencoder that Liquidsoap takes is checked. */
class ConditionalsTest {
    @Test
    void ifdefOfAnUndefinedNameTakesTheElseBranch() {
        type("int", "%ifdef input.alsa\nx = input.alsa()\n%else\nx = 1\n%endif");
        type("string", "%ifndef input.alsa\nx = \"none\"\n%endif");
    }

    @Test
    void ifdefSeesBuiltinsAndWhatTheScriptDefinedAbove() {
        type("int", "%ifdef sine\nx = 2\n%else\nx = \"a\"\n%endif");
        type("int", "y = 3\n%ifdef y\nx = y\n%else\nx = boom\n%endif");
        type("int", "%ifdef list.map\nx = 1\n%endif");
    }

    @Test
    void theBranchTakenDefinesForTheRest() {
        type("int", "%ifdef sine\ny = 1\n%else\ny = \"a\"\n%endif\nx = y + 1");
    }

    @Test
    void theBranchTakenIsChecked() {
        assertEquals(
                "this value has type string but it should be a subtype of int",
                error("%ifdef sine\nx = 1 + \"a\"\n%endif"));
    }

    @Test
    void ifversionComparesWithLiquidsoap245() {
        type("int", "%ifversion >= 2.4.0\nx = 1\n%else\nx = boom\n%endif");
        type("int", "%ifversion < 2.4.5\nx = boom\n%else\nx = 1\n%endif");
        type("int", "%ifversion == 2.4.5\nx = 1\n%endif");
    }

    @Test
    void ifencoderAsksWhatEncodersThereAre() {
        type("int", "%ifencoder %mp3\nx = 1\n%else\nx = boom\n%endif");
        type("int", "%ifnencoder %gstreamer\nx = 1\n%else\nx = boom\n%endif");
    }
}
