package org.groovecast.liquidsoap.engine;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.groovecast.host.script.ScriptError;
import org.junit.jupiter.api.Test;

/**
 * Autocue's functions and settings check as Liquidsoap 2.4 types them, in an AzuraCast-shaped use.
 */
class AutocueCheckTest {
    private static void load(String text) {
        new LiquidsoapFrontEnd()
                .load(
                        "station.liq",
                        text,
                        ShippedStation.functions(),
                        RepositoryScriptsTest.NO_SETTINGS);
    }

    @Test
    void aRegisteredImplementationFallingBackOnTheInternalOneChecks() {
        assertDoesNotThrow(
                () ->
                        load(
                                """
                                settings.autocue.amplify_behavior := "keep"
                                settings.autocue.internal.lufs_target := -16.
                                settings.autocue.internal.sustained_endings_enabled := false
                                def station_autocue(~request_metadata, ~file_metadata, filename) =
                                  if list.assoc(default="false", "precomputed", request_metadata) == "true" then
                                    def optional_amplify =
                                      if list.assoc.mem("liq_amplify", request_metadata) then
                                        {amplify = list.assoc("liq_amplify", request_metadata)}
                                      else
                                        {}
                                      end
                                    end
                                    {
                                      cue_in = float_of_string(list.assoc("cue_in", request_metadata)),
                                      cue_out = 10.,
                                      fade_in = 0.,
                                      fade_out = 1.,
                                      ...optional_amplify
                                    }
                                  else
                                    autocue.internal.implementation(
                                      request_metadata=request_metadata,
                                      file_metadata=file_metadata,
                                      filename
                                    )
                                  end
                                end
                                enable_autocue_metadata()
                                autocue.register(name="station", station_autocue)
                                settings.autocue.preferred := "station"
                                enable_replaygain_metadata(compute=true)
                                output.dummy(sine())
                                """));
    }

    @Test
    void aWrongTypeOfThresholdIsRefused() {
        String m =
                assertThrows(
                                ScriptError.class,
                                () ->
                                        load(
                                                "settings.autocue.internal.cue_in_threshold := \"low\"\n"
                                                        + "output.dummy(sine())"))
                        .getMessage();
        assertTrue(m.startsWith("station.liq:1:"), m);
    }
}
