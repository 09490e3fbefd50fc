package org.groovecast.ffmpeg;

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
                        .positional("uri", STRING, "the file, or a request uri resolved to one")
                        .returns(MAP)
                        .create(AutocueOperators::analyze));
    }

    private static Map<String, String> analyze(Arguments a) {
        AutocueParams p =
                new AutocueParams(
                        a.number("lufsTarget"),
                        a.number("cueInThreshold"),
                        a.number("cueOutThreshold"),
                        a.number("crossThreshold"),
                        a.number("maxOverlap"));
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
