package org.groovecast.liquidsoap.engine;

import java.util.Map;

/**
 * Liquidsoap's settings that Groovecast has, under its names: {@code
 * settings.frame.audio.samplerate} is {@code audio.samplerate}, {@code settings.root.max_latency}
 * {@code clock.maxLatency}. The others are accepted and said to be unused (see the prelude's
 * settings tree).
 */
final class SettingNames {
    private static final Map<String, String> ENGINE =
            Map.ofEntries(
                    Map.entry("frame.duration", "frame.duration"),
                    Map.entry("frame.audio.samplerate", "audio.samplerate"),
                    Map.entry("frame.audio.channels", "audio.channels"),
                    Map.entry("frame.video.width", "video.frame.width"),
                    Map.entry("frame.video.height", "video.frame.height"),
                    Map.entry("frame.video.framerate", "video.frame.rate"),
                    Map.entry("request.timeout", "request.timeout"),
                    Map.entry("root.max_latency", "clock.maxLatency"),
                    Map.entry("harbor.max_connections", "harbor.maxConnections"),
                    Map.entry("harbor.timeout", "harbor.idleTimeout"),
                    // autocue: the ffmpeg plugin's; enabled is what enable_autocue_metadata() sets
                    Map.entry("autocue.enabled", "autocue.enabled"),
                    Map.entry("autocue.amplify_behavior", "autocue.amplifyBehavior"),
                    Map.entry("autocue.internal.lufs_target", "autocue.lufsTarget"),
                    Map.entry("autocue.internal.cue_in_threshold", "autocue.cueInThreshold"),
                    Map.entry("autocue.internal.cue_out_threshold", "autocue.cueOutThreshold"),
                    Map.entry("autocue.internal.cross_threshold", "autocue.crossThreshold"),
                    Map.entry("autocue.internal.max_overlap", "autocue.maxOverlap"),
                    Map.entry(
                            "autocue.internal.sustained_endings_enabled",
                            "autocue.sustainedEndings"),
                    Map.entry(
                            "autocue.internal.sustained_endings_dropoff",
                            "autocue.sustainedDropoff"),
                    Map.entry("autocue.internal.sustained_endings_slope", "autocue.sustainedSlope"),
                    Map.entry(
                            "autocue.internal.sustained_endings_min_duration",
                            "autocue.sustainedMinDuration"),
                    Map.entry(
                            "autocue.internal.sustained_endings_threshold_limit",
                            "autocue.sustainedThresholdLimit"),
                    Map.entry("replaygain.compute", "replaygain.compute"));

    private SettingNames() {}

    /** The engine's key for a Liquidsoap setting path (without {@code settings.}), or null. */
    static String engineKey(String path) {
        return ENGINE.get(path);
    }

    static Map<String, String> all() {
        return ENGINE;
    }
}
