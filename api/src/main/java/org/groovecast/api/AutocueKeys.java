package org.groovecast.api;

import java.util.List;

/**
 * Metadata keys autocue reads, shared by the engine's measure (ffmpeg plugin) and the Liquidsoap
 * front end's {@code autocue.*} functions, which must agree on when a track is left alone.
 */
public final class AutocueKeys {
    /**
     * Keys that say a track's cues are set already, so autocue measures nothing for it: Liquidsoap
     * 2.4's {@code settings.autocue.internal.metadata_override}.
     */
    public static final List<String> OVERRIDES =
            List.of(
                    "liq_cue_in",
                    "liq_cue_out",
                    "liq_fade_in",
                    "liq_fade_in_delay",
                    "liq_fade_out",
                    "liq_fade_out_delay",
                    "liq_disable_autocue");

    private AutocueKeys() {}
}
