package org.groovecast.ffmpeg.autocue;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.AutocueKeys;
import org.groovecast.api.Metadata;
import org.groovecast.api.RequestResolver;
import org.groovecast.api.StreamContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a request source adds to a track's metadata from the file's own sound as the request
 * resolves (on the blocking pool, before the file opens to play): autocue's cue points and gain
 * ({@code settings.autocue.enabled}) and a computed ReplayGain ({@code
 * settings.replaygain.compute}). Both come from one measurement, cached ({@link LoudnessProfiles}).
 */
public record TrackAnalysis(
        boolean autocue,
        boolean replaygain,
        AutocueParams params,
        String amplifyBehavior,
        AudioFormat format,
        RequestResolver requests) {
    private static final Logger log = LoggerFactory.getLogger(TrackAnalysis.class);

    /** Gains a track may carry already, which {@link #amplifyBehavior} decides about. */
    static final List<String> GAINS = List.of("liq_amplify", "replaygain_track_gain");

    /** ReplayGain 2.0's reference loudness. */
    static final double REPLAYGAIN_REFERENCE = -18;

    public static final TrackAnalysis NONE =
            new TrackAnalysis(
                    false, false, AutocueParams.DEFAULTS, "override", AudioFormat.DEFAULT, null);

    /**
     * The station's choice, for a source prepared with {@code context} that resolves with {@code
     * requests} (whose file metadata resolvers, the script's, go first).
     */
    public static TrackAnalysis of(
            StreamContext context, AudioFormat format, RequestResolver requests) {
        return new TrackAnalysis(
                (Boolean) AutocueSettings.ENABLED.valueIn(context),
                (Boolean) AutocueSettings.REPLAYGAIN.valueIn(context),
                AutocueSettings.params(context),
                (String) AutocueSettings.AMPLIFY.valueIn(context),
                format,
                requests);
    }

    /**
     * The metadata to lay over {@code given}, the track's so far, for {@code file}: the script's
     * resolvers' (an autocue implementation of its own), then what the measurement finds where they
     * left it to; empty when nothing is asked or the file cannot be measured (it still plays, as it
     * is). Blocking.
     */
    public Map<String, String> of(String file, Metadata given) {
        Metadata script = requests == null ? Metadata.EMPTY : requests.fileMetadata(file, given);
        Map<String, String> out = new LinkedHashMap<>(script);
        if (autocue && script.get("liq_autocue") != null && script.get("liq_amplify") != null)
            applyAmplifyBehavior(out, given, script.get("liq_amplify"));
        Metadata metadata = given.with(script);
        boolean cue =
                autocue && AutocueKeys.OVERRIDES.stream().noneMatch(k -> metadata.get(k) != null);
        boolean gain =
                replaygain
                        && metadata.get("replaygain_track_gain") == null
                        && metadata.get("r128_track_gain") == null;
        if (autocue && !cue) log.debug("{}: has cue metadata of its own, no autocue", file);
        if (!cue && !gain) return out;
        LoudnessProfile profile;
        try {
            profile = LoudnessProfiles.shared().of(file, format);
        } catch (IOException e) {
            log.warn("{}: cannot measure its loudness, played as it is: {}", file, e.getMessage());
            return out;
        }
        if (gain && Double.isFinite(profile.integrated()))
            out.put(
                    "replaygain_track_gain",
                    AutocueMetadata.gain(REPLAYGAIN_REFERENCE - profile.integrated()));
        AutocuePoints points = cue ? AutocuePoints.of(profile, params) : null;
        if (points != null) {
            Map<String, String> cues = AutocueMetadata.of(points);
            out.putAll(cues);
            applyAmplifyBehavior(out, given, cues.get("liq_amplify"));
        }
        return out;
    }

    private void applyAmplifyBehavior(Map<String, String> out, Metadata metadata, String measured) {
        List<String> given = GAINS.stream().filter(k -> metadata.get(k) != null).toList();
        switch (amplifyBehavior) {
            case "ignore" -> out.remove("liq_amplify");
            case "keep" -> {
                if (!given.isEmpty()) out.remove("liq_amplify");
            }
            default -> given.forEach(k -> out.put(k, measured)); // override
        }
    }
}
