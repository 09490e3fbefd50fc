package org.groovecast.ffmpeg.autocue;

import static org.groovecast.api.ValueType.BOOLEAN;
import static org.groovecast.api.ValueType.MAP;
import static org.groovecast.api.ValueType.NUMBER;
import static org.groovecast.api.ValueType.STRING;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.groovecast.api.Arguments;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.OperatorProvider;
import org.groovecast.api.OperatorSpec;
import org.groovecast.api.ScriptException;
import org.pf4j.Extension;

/**
 * {@code autocue.analyze(uri)}: a file's cue points and gain, measured now, for scripts that decide
 * per request (a protocol that annotates, a log); request sources do it themselves with {@code
 * settings.autocue.enabled}.
 */
@Extension
public final class AutocueOperators implements OperatorProvider {
    @Override
    public List<OperatorSpec> operators() {
        AutocueParams d = AutocueParams.DEFAULTS;
        return List.of(
                OperatorSpec.named("autocue.analyze")
                        .blocking()
                        .doc(
                                "Measures a file's loudness over time (EBU R128, as lufs does; cached by path, time and "
                                        + "size) and returns the metadata autocue gives its track: liq_cue_in, liq_cue_out, "
                                        + "liq_fade_in, liq_fade_out, liq_cross_duration, liq_amplify...; an empty map for a "
                                        + "silent file. Blocking: call it where blocking is allowed (a protocol, thread.run).")
                        .named(
                                "lufsTarget",
                                NUMBER,
                                d.lufsTarget(),
                                "the loudness liq_amplify aims at, LUFS")
                        .named(
                                "cueInThreshold",
                                NUMBER,
                                d.cueInThreshold(),
                                "LU under the track's loudness where it starts")
                        .named(
                                "cueOutThreshold",
                                NUMBER,
                                d.cueOutThreshold(),
                                "LU under the track's loudness after which it ends")
                        .named(
                                "crossThreshold",
                                NUMBER,
                                d.crossThreshold(),
                                "LU under the track's loudness after which it fades out")
                        .named(
                                "maxOverlap",
                                NUMBER,
                                d.maxOverlap(),
                                "the longest fade-out, seconds")
                        .named(
                                "sustainedEndings",
                                BOOLEAN,
                                d.sustained().enabled(),
                                "an ending that stays loud fades out later")
                        .named(
                                "sustainedDropoff",
                                NUMBER,
                                d.sustained().dropoff(),
                                "as settings.autocue.sustainedDropoff")
                        .named(
                                "sustainedSlope",
                                NUMBER,
                                d.sustained().slope(),
                                "as settings.autocue.sustainedSlope")
                        .named(
                                "sustainedMinDuration",
                                NUMBER,
                                d.sustained().minDuration(),
                                "as settings.autocue.sustainedMinDuration")
                        .named(
                                "sustainedThresholdLimit",
                                NUMBER,
                                d.sustained().thresholdLimit(),
                                "as settings.autocue.sustainedThresholdLimit")
                        .positional("uri", STRING, "the file, or a request uri resolved to one")
                        .returns(MAP)
                        .create(AutocueOperators::analyze),
                OperatorSpec.named("autocue.metadata")
                        .doc(
                                "The metadata autocue gives a track with these points (seconds from the file's start), as "
                                        + "Liquidsoap's autocue.metadata: for a decoder.metadata.add resolver that finds "
                                        + "cue points its own way.")
                        .named("implementation", STRING, "internal", "liq_autocue's value")
                        .named(
                                "startNext",
                                NUMBER,
                                -1.0,
                                "where the next track may start; -1 for the fade-out's start")
                        .named("amplify", STRING, "", "the track's gain ('-3 dB'); '' for none")
                        .positional("cueIn", NUMBER, "where the track starts")
                        .positional("cueOut", NUMBER, "where it ends")
                        .positional("fadeIn", NUMBER, "its fade-in, seconds")
                        .positional("fadeOut", NUMBER, "its fade-out, seconds, ending at cueOut")
                        .returns(MAP)
                        .create(
                                a ->
                                        AutocueMetadata.of(
                                                a.string("implementation"),
                                                a.number("cueIn"),
                                                a.number("cueOut"),
                                                a.number("fadeIn"),
                                                a.number("fadeOut"),
                                                a.number("startNext") < 0
                                                        ? null
                                                        : a.number("startNext"),
                                                a.string("amplify").isEmpty()
                                                        ? null
                                                        : a.string("amplify"))));
    }

    private static Map<String, String> analyze(Arguments a) {
        AutocueParams p =
                new AutocueParams(
                        a.number("lufsTarget"),
                        a.number("cueInThreshold"),
                        a.number("cueOutThreshold"),
                        a.number("crossThreshold"),
                        a.number("maxOverlap"),
                        new AutocueParams.Sustained(
                                a.bool("sustainedEndings"),
                                a.number("sustainedDropoff"),
                                a.number("sustainedSlope"),
                                a.number("sustainedMinDuration"),
                                a.number("sustainedThresholdLimit")));
        String uri = a.string("uri");
        try {
            return a.requests()
                    .resolve(
                            uri,
                            null,
                            0,
                            r -> {
                                try (r) {
                                    LoudnessProfile profile =
                                            LoudnessProfiles.shared()
                                                    .of(r.file(), AudioFormat.DEFAULT);
                                    AutocuePoints points = AutocuePoints.of(profile, p);
                                    return points == null ? Map.of() : AutocueMetadata.of(points);
                                }
                            });
        } catch (IOException e) {
            throw new ScriptException("autocue.analyze(): " + e.getMessage());
        }
    }
}
