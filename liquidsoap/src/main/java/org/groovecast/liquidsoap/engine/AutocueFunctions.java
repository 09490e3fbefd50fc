package org.groovecast.liquidsoap.engine;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.groovecast.api.AutocueKeys;
import org.groovecast.api.UserFunction;
import org.groovecast.liquidsoap.eval.Call;
import org.groovecast.liquidsoap.eval.Errors;
import org.groovecast.liquidsoap.eval.Fn;
import org.groovecast.liquidsoap.eval.HasFields;
import org.groovecast.liquidsoap.eval.Rec;
import org.groovecast.liquidsoap.eval.Show;
import org.groovecast.liquidsoap.eval.Tuple;
import org.groovecast.liquidsoap.eval.Values;
import org.groovecast.liquidsoap.prelude.Library;
import org.groovecast.liquidsoap.prelude.Platform;

/**
 * Liquidsoap 2.4's autocue and computed ReplayGain: {@code enable_autocue_metadata()} and {@code
 * enable_replaygain_metadata(compute=true)} switch on the request sources' own measurement ({@code
 * settings.autocue.enabled}, {@code settings.replaygain.compute}, the ffmpeg plugin's), the
 * thresholds are {@code settings.autocue.internal.*} (handed to the engine as {@code
 * settings.autocue.*}); {@code autocue.internal.implementation} is the engine's {@code
 * autocue.analyze} with those settings, answered as Liquidsoap's record. {@code autocue.register}
 * keeps a script's implementation by name: when {@code settings.autocue.preferred} names one, a
 * file metadata resolver ({@code decoder.metadata.add}) calls it as each file is about to play and
 * turns its record into the track's metadata ({@code autocue.metadata}, the engine's); the engine
 * then measures nothing for that file.
 */
final class AutocueFunctions {
    private static final String METADATA = "[(string * string)]";
    private static final String RESULT =
            "{amplify : string, cue_in : float, cue_out : float, fade_in : float, fade_out : float}";

    private final Library lib;
    private final Platform platform;
    private final OperatorBridge.Caller caller;
    private final Map<String, Fn> implementations = new java.util.concurrent.ConcurrentHashMap<>();
    private boolean resolverAdded;

    private AutocueFunctions(Library lib, Platform platform, OperatorBridge.Caller caller) {
        this.lib = lib;
        this.platform = platform;
        this.caller = caller;
    }

    static void register(Library lib, Platform platform, OperatorBridge.Caller caller) {
        new AutocueFunctions(lib, platform, caller).register();
    }

    private void register() {
        lib.function(
                "enable_autocue_metadata",
                "() -> unit",
                "Gives every file a request source plays the cue points, fades and gain measured in its sound"
                        + " (settings.autocue.internal.*), as the request resolves; cached per file.",
                a -> {
                    enable("autocue.enabled", "enable_autocue_metadata()");
                    if (!resolverAdded) {
                        resolverAdded = true;
                        UserFunction resolver = args -> preferred(args[0], args[1]);
                        caller.call(
                                "decoder.metadata.add",
                                new Object[] {Map.of(), "autocue", resolver},
                                a.at());
                    }
                    return Tuple.UNIT;
                });
        lib.function(
                "enable_replaygain_metadata",
                "(?compute : bool, ?ratio : float) -> unit",
                "Gives every file a request source plays without a replaygain_track_gain tag one measured in its sound"
                        + " (compute=true); apply it with replaygain() or amplify(override=...).",
                Map.of("compute", true, "ratio", 50.0),
                a -> {
                    if (a.bool(0))
                        enable("replaygain.compute", "enable_replaygain_metadata(compute=true)");
                    return Tuple.UNIT;
                });
        lib.function(
                "autocue.register",
                "(name : string, (request_metadata : "
                        + METADATA
                        + ", file_metadata : "
                        + METADATA
                        + ", string) -> 'a) -> unit",
                "Registers an autocue implementation under a name (settings.autocue.preferred chooses).",
                a -> {
                    String name = a.string(0);
                    if (implementations.containsKey(name) || name.equals("internal"))
                        throw Errors.invalid("Autocue implementation " + name + " already exists!");
                    implementations.put(name, a.fn(1));
                    return Tuple.UNIT;
                });
        lib.function(
                "autocue.internal.implementation",
                "(request_metadata : "
                        + METADATA
                        + ", file_metadata : "
                        + METADATA
                        + ", string) -> "
                        + RESULT
                        + "?",
                "The engine's autocue for a file: its cue points, fades and gain measured now (blocking; cached per"
                        + " file), null when its metadata sets cues already or it cannot be measured.",
                a -> internal(a.list(0), a.list(1), a.string(2), a.call()));
    }

    private void enable(String setting, String function) {
        if (!platform.setting(setting, true)) {
            platform.log(
                    "autocue",
                    2,
                    function
                            + ": the ffmpeg plugin, which measures files, is not loaded: nothing is"
                            + " measured");
        }
    }

    /**
     * The metadata the preferred implementation gives {@code file}, when it is one of the script's:
     * its record as metadata, or {@code liq_disable_autocue} for null (no cues, and the engine
     * measures nothing either); null for the internal one, which the engine runs itself.
     */
    private Object preferred(Object file, Object given) {
        Object name = Values.base(setting("autocue", "preferred"));
        Fn impl = implementations.get(String.valueOf(name));
        if (impl == null || !(given instanceof Map<?, ?> metadata)) return null;
        if (metadata.keySet().stream()
                .anyMatch(k -> AutocueKeys.OVERRIDES.contains(String.valueOf(k)))) return null;
        Object r =
                impl.apply(
                        Call.at(null)
                                .arg("request_metadata", EngineValues.pairs(metadata))
                                .arg("file_metadata", List.of())
                                .arg(String.valueOf(file))
                                .build());
        if (r == null || Values.isUnit(r) && Values.fields(r).isEmpty()) {
            platform.log("autocue.metadata", 2, "No autocue data returned for file " + file);
            return Map.of("liq_disable_autocue", "true");
        }
        Map<String, Object> f = Values.fields(r);
        Map<String, Object> named = new LinkedHashMap<>();
        named.put("implementation", String.valueOf(name));
        if (f.get("start_next") != null)
            named.put("startNext", ((Number) Values.base(f.get("start_next"))).doubleValue());
        if (f.get("amplify") != null) named.put("amplify", Show.text(f.get("amplify")));
        Object[] args = {
            named,
            number(f, "cue_in"),
            number(f, "cue_out"),
            number(f, "fade_in"),
            number(f, "fade_out")
        };
        Map<String, Object> out = new LinkedHashMap<>();
        if (caller.call("autocue.metadata", args, null) instanceof Map<?, ?> m)
            m.forEach((k, v) -> out.put(String.valueOf(k), v));
        for (String k : List.of("fade_in_type", "fade_in_curve", "fade_out_type", "fade_out_curve"))
            if (f.get(k) != null) out.put("liq_" + k, Show.text(f.get(k)));
        if (f.get("extra_metadata") != null)
            out.putAll(EngineValues.metadata(f.get("extra_metadata")));
        return out;
    }

    private static double number(Map<String, Object> fields, String name) {
        Object v = fields.get(name);
        if (v == null) throw Errors.invalid("an autocue result needs " + name);
        return ((Number) Values.base(v)).doubleValue();
    }

    private Object internal(
            List<Object> requestMetadata, List<Object> fileMetadata, String file, Call call) {
        for (List<Object> m : List.of(requestMetadata, fileMetadata)) {
            for (Object p : m) {
                if (Values.base(p) instanceof Tuple t
                        && AutocueKeys.OVERRIDES.contains(String.valueOf(Values.base(t.get(0))))) {
                    platform.log(
                            "autocue.internal.metadata",
                            2,
                            "Override metadata detected for " + file + ", disabling autocue!");
                    return null;
                }
            }
        }
        Map<String, Object> named = new LinkedHashMap<>();
        for (String[] s :
                new String[][] {
                    {"lufsTarget", "lufs_target"},
                    {"cueInThreshold", "cue_in_threshold"},
                    {"cueOutThreshold", "cue_out_threshold"},
                    {"crossThreshold", "cross_threshold"},
                    {"maxOverlap", "max_overlap"},
                    {"sustainedEndings", "sustained_endings_enabled"},
                    {"sustainedDropoff", "sustained_endings_dropoff"},
                    {"sustainedSlope", "sustained_endings_slope"},
                    {"sustainedMinDuration", "sustained_endings_min_duration"},
                    {"sustainedThresholdLimit", "sustained_endings_threshold_limit"}
                }) {
            Object v = Values.base(setting("autocue", "internal", s[1]));
            named.put(s[0], v instanceof Number n ? n.doubleValue() : v);
        }
        Object r = caller.call("autocue.analyze", new Object[] {named, file}, call.at());
        if (!(r instanceof Map<?, ?> m) || m.isEmpty()) return null;
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("amplify", Show.text(m.get("liq_amplify")));
        for (String k : List.of("cue_in", "cue_out", "fade_in", "fade_out"))
            out.put(k, Double.parseDouble(String.valueOf(m.get("liq_" + k))));
        return Rec.record(out);
    }

    /** {@code settings.PATH()}, as the script set it. */
    private Object setting(String... path) {
        Object node = lib.entry("settings").value();
        for (String part : path) node = ((HasFields) Values.base(node)).field(part);
        return ((Fn) node).apply(Call.at(null).build());
    }
}
