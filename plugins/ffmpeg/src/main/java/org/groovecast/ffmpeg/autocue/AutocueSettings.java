package org.groovecast.ffmpeg.autocue;

import java.util.List;
import org.groovecast.api.SettingSpec;
import org.groovecast.api.SettingsProvider;
import org.groovecast.api.StreamContext;
import org.groovecast.api.ValueType;
import org.pf4j.Extension;

/**
 * {@code settings.autocue.*} and {@code settings.replaygain.compute}: whether the request sources
 * measure each file as it resolves, and what the measurement looks for (Liquidsoap 2.4's {@code
 * settings.autocue.internal.*}, same defaults).
 */
@Extension
public final class AutocueSettings implements SettingsProvider {
    static final SettingSpec ENABLED =
            new SettingSpec(
                    "autocue.enabled",
                    ValueType.BOOLEAN,
                    false,
                    "measure each file a request source resolves (once; cached by path, time and size) and "
                            + "give its track liq_cue_in/out, liq_fade_in/out, liq_cross_duration and liq_amplify "
                            + "(Liquidsoap's enable_autocue_metadata()); a track with its own cue or fade metadata, "
                            + "or liq_disable_autocue, is left as it is");
    static final SettingSpec LUFS_TARGET =
            new SettingSpec(
                    "autocue.lufsTarget",
                    ValueType.NUMBER,
                    -14.0,
                    "the loudness (LUFS) liq_amplify brings each track to");
    static final SettingSpec CUE_IN =
            new SettingSpec(
                    "autocue.cueInThreshold",
                    ValueType.NUMBER,
                    -34.0,
                    "the track starts where it first gets this loud (LU from its integrated loudness)");
    static final SettingSpec CUE_OUT =
            new SettingSpec(
                    "autocue.cueOutThreshold",
                    ValueType.NUMBER,
                    -42.0,
                    "the track ends after it was last this loud (LU from its integrated loudness)");
    static final SettingSpec CROSS =
            new SettingSpec(
                    "autocue.crossThreshold",
                    ValueType.NUMBER,
                    -7.0,
                    "the fade-out, and the next track, start after it was last this loud (LU)");
    static final SettingSpec MAX_OVERLAP =
            new SettingSpec(
                    "autocue.maxOverlap",
                    ValueType.NUMBER,
                    6.0,
                    "the longest fade-out (overlap with the next track), seconds");
    static final SettingSpec SUSTAINED =
            new SettingSpec(
                    "autocue.sustainedEndings",
                    ValueType.BOOLEAN,
                    true,
                    "an ending that stays loud has its fade-out start later, found with a lower threshold");
    static final SettingSpec SUSTAINED_DROPOFF =
            new SettingSpec(
                    "autocue.sustainedDropoff",
                    ValueType.NUMBER,
                    15.0,
                    "% under the crossing threshold an ending may be and still count as staying loud");
    static final SettingSpec SUSTAINED_SLOPE =
            new SettingSpec(
                    "autocue.sustainedSlope",
                    ValueType.NUMBER,
                    20.0,
                    "% an ending's second half may fall from its first and still count as staying loud");
    static final SettingSpec SUSTAINED_MIN =
            new SettingSpec(
                    "autocue.sustainedMinDuration",
                    ValueType.NUMBER,
                    1.0,
                    "the shortest ending (crossing point to cue-out) looked at, seconds");
    static final SettingSpec SUSTAINED_LIMIT =
            new SettingSpec(
                    "autocue.sustainedThresholdLimit",
                    ValueType.NUMBER,
                    2.0,
                    "how far the crossing threshold may be lowered for a sustained ending (a factor)");
    static final SettingSpec AMPLIFY =
            new SettingSpec(
                    "autocue.amplifyBehavior",
                    ValueType.STRING,
                    "override",
                    "when the track has its own gain (liq_amplify, replaygain_track_gain): `override` sets it to "
                            + "the measured one, `keep` keeps it, `ignore` gives no liq_amplify at all");
    static final SettingSpec REPLAYGAIN =
            new SettingSpec(
                    "replaygain.compute",
                    ValueType.BOOLEAN,
                    false,
                    "measure each file a request source resolves that has no replaygain_track_gain tag and give "
                            + "it one (ReplayGain 2.0: -18 LUFS reference), as Liquidsoap's "
                            + "enable_replaygain_metadata(compute=true)");

    @Override
    public List<SettingSpec> settings() {
        return List.of(
                ENABLED,
                LUFS_TARGET,
                CUE_IN,
                CUE_OUT,
                CROSS,
                MAX_OVERLAP,
                SUSTAINED,
                SUSTAINED_DROPOFF,
                SUSTAINED_SLOPE,
                SUSTAINED_MIN,
                SUSTAINED_LIMIT,
                AMPLIFY,
                REPLAYGAIN);
    }

    static AutocueParams params(StreamContext c) {
        return new AutocueParams(
                number(LUFS_TARGET, c),
                number(CUE_IN, c),
                number(CUE_OUT, c),
                number(CROSS, c),
                number(MAX_OVERLAP, c),
                new AutocueParams.Sustained(
                        (Boolean) SUSTAINED.valueIn(c),
                        number(SUSTAINED_DROPOFF, c),
                        number(SUSTAINED_SLOPE, c),
                        number(SUSTAINED_MIN, c),
                        number(SUSTAINED_LIMIT, c)));
    }

    private static double number(SettingSpec s, StreamContext c) {
        return ((Number) s.valueIn(c)).doubleValue();
    }
}
