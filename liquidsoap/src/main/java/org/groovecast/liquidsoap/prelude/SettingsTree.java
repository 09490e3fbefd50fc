package org.groovecast.liquidsoap.prelude;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.groovecast.liquidsoap.eval.Builtin;
import org.groovecast.liquidsoap.eval.Call;
import org.groovecast.liquidsoap.eval.Env;
import org.groovecast.liquidsoap.eval.Errors;
import org.groovecast.liquidsoap.eval.Fn;
import org.groovecast.liquidsoap.eval.HasFields;
import org.groovecast.liquidsoap.eval.Parameter;
import org.groovecast.liquidsoap.eval.Tuple;

/**
 * Liquidsoap's built-in settings, {@code settings.log.level := 4}, {@code
 * settings.frame.duration()}: every path under {@code settings} is a node one can read (as a
 * function) and set ({@code :=}). A setting the engine has is handed to it ({@link
 * Platform#setting}); one it has not is kept, and setting it logs once that Groovecast does not use
 * it (Liquidsoap has some hundred settings, most about its own internals). Reading a setting that
 * has no value is an error naming it. A script's own settings ({@code let settings.azuracast = ()},
 * {@code settings.make}) are ordinary fields on top of this tree.
 */
final class SettingsTree {
    private final Platform platform;
    private final Map<String, Object> values = new ConcurrentHashMap<>(Defaults.VALUES);
    private final Set<String> told = ConcurrentHashMap.newKeySet();

    SettingsTree(Platform platform) {
        this.platform = platform;
    }

    Node root() {
        return new Node("");
    }

    Node node(String path) {
        return new Node(path);
    }

    /**
     * The type of the settings under {@code path} ("" for all of them): each known setting a
     * reference of its value's type ({@code settings.log.level : ref(int)}), with its own settings
     * as fields; a group of settings a record open to more fields, so that the settings Groovecast
     * does not list (Liquidsoap has hundreds) check too, and are told unused when set.
     */
    static String type(String path) {
        java.util.TreeMap<String, Object> under = new java.util.TreeMap<>();
        String prefix = path.isEmpty() ? "" : path + ".";
        for (Map.Entry<String, Object> e : Defaults.VALUES.entrySet()) {
            if (e.getKey().equals(path)) under.put("", e.getValue());
            else if (e.getKey().startsWith(prefix))
                under.put(e.getKey().substring(prefix.length()), e.getValue());
        }
        return node(under, "", new int[] {0});
    }

    private static String node(java.util.SortedMap<String, Object> all, String at, int[] vars) {
        Object value = all.get(at);
        List<String> fields = new java.util.ArrayList<>();
        String prefix = at.isEmpty() ? "" : at + ".";
        Set<String> children = new java.util.LinkedHashSet<>();
        for (String k : all.keySet()) {
            if (k.startsWith(prefix) && k.length() > prefix.length()) {
                String rest = k.substring(prefix.length());
                int dot = rest.indexOf('.');
                children.add(dot < 0 ? rest : rest.substring(0, dot));
            }
        }
        for (String c : children) fields.add(c + " : " + node(all, prefix + c, vars));
        String base;
        if (value != null) {
            String t = valueType(value);
            fields.addFirst("set : (" + t + ") -> unit");
            base = "(() -> " + t + ")";
        } else {
            base = "'s" + vars[0]++;
        }
        return base + ".{" + String.join(", ", fields) + "}";
    }

    private static String valueType(Object v) {
        return switch (v) {
            case Long l -> "int";
            case Double d -> "float";
            case Boolean b -> "bool";
            case List<?> l -> "[string]";
            default -> "string";
        };
    }

    /**
     * The values of the settings Liquidsoap scripts read most, before any is set. Liquidsoap's own
     * defaults, written here and not taken from api (AutocueKeys, Metadata.EXPORTED hold the same
     * lists for the engine): the language runs without an engine (ArchitectureTest).
     */
    static final class Defaults {
        static final Map<String, Object> VALUES =
                Map.ofEntries(
                        Map.entry("log.level", 3L),
                        Map.entry("log.stdout", true),
                        Map.entry("log.file", false),
                        Map.entry("log.file.path", "/tmp/liquidsoap.log"),
                        Map.entry("init.force_start", false),
                        Map.entry("init.daemon", false),
                        Map.entry("init.daemon.pidfile", false),
                        Map.entry("init.daemon.pidfile.path", ""),
                        Map.entry("init.allow_root", false),
                        Map.entry("init.compact_before_start", false),
                        Map.entry("frame.duration", 0.04),
                        Map.entry("frame.audio.samplerate", 44100L),
                        Map.entry("frame.audio.channels", 2L),
                        Map.entry("frame.video.width", 1280L),
                        Map.entry("frame.video.height", 720L),
                        Map.entry("frame.video.framerate", 25L),
                        Map.entry("harbor.bind_addrs", List.of((Object) "0.0.0.0")),
                        Map.entry("harbor.max_connections", 2L),
                        Map.entry("harbor.timeout", 300.0),
                        Map.entry("server.telnet", false),
                        Map.entry("server.telnet.port", 1234L),
                        Map.entry("server.telnet.bind_addr", "127.0.0.1"),
                        Map.entry("server.timeout", 30.0),
                        Map.entry("server.socket", false),
                        Map.entry("request.timeout", 29.0),
                        Map.entry("root.max_latency", 60.0),
                        Map.entry("clock.allow_streaming_errors", false),
                        Map.entry("console.colorize", "auto"),
                        Map.entry("sandbox", "disabled"),
                        Map.entry("autocue.preferred", "internal"),
                        Map.entry("autocue.amplify_behavior", "override"),
                        Map.entry(
                                "autocue.amplify_aliases",
                                List.of((Object) "replaygain_track_gain")),
                        Map.entry("autocue.metadata.priority", 10L),
                        Map.entry("autocue.internal.lufs_target", -14.0),
                        Map.entry("autocue.internal.cue_in_threshold", -34.0),
                        Map.entry("autocue.internal.cue_out_threshold", -42.0),
                        Map.entry("autocue.internal.cross_threshold", -7.0),
                        Map.entry("autocue.internal.max_overlap", 6.0),
                        Map.entry("autocue.internal.sustained_endings_enabled", true),
                        Map.entry("autocue.internal.sustained_endings_dropoff", 15.0),
                        Map.entry("autocue.internal.sustained_endings_slope", 20.0),
                        Map.entry("autocue.internal.sustained_endings_min_duration", 1.0),
                        Map.entry("autocue.internal.sustained_endings_threshold_limit", 2.0),
                        Map.entry("autocue.internal.ratio", 70.0),
                        Map.entry("autocue.internal.timeout", 10.0),
                        Map.entry(
                                "autocue.internal.metadata_override",
                                List.<Object>of(
                                        "liq_cue_in",
                                        "liq_cue_out",
                                        "liq_fade_in",
                                        "liq_fade_in_delay",
                                        "liq_fade_out",
                                        "liq_fade_out_delay",
                                        "liq_disable_autocue")),
                        Map.entry("decoder.priorities.ffmpeg", 10L),
                        Map.entry("playlist.cue_in_metadata", "liq_cue_in"),
                        Map.entry("playlist.cue_out_metadata", "liq_cue_out"),
                        Map.entry("playlist.cue.pregap_metadata", "liq_pregap"),
                        Map.entry("playlist.cue.postgap_metadata", "liq_postgap"),
                        Map.entry("playlist.cue.index_zero_metadata", "liq_index_zero"),
                        Map.entry(
                                "playlist.cue.index_zero_filename_metadata",
                                "liq_index_zero_filename"),
                        Map.entry(
                                "encoder.metadata.cover",
                                List.of((Object) "pic", "apic", "metadata_block_picture", "cover")),
                        Map.entry(
                                "encoder.metadata.export",
                                List.of(
                                        (Object) "artist",
                                        "title",
                                        "album",
                                        "genre",
                                        "date",
                                        "tracknumber",
                                        "comment",
                                        "track",
                                        "year",
                                        "dj",
                                        "next",
                                        "apic",
                                        "pic",
                                        "metadata_url",
                                        "metadata_block_picture",
                                        "coverart")));
    }

    final class Node extends Fn implements HasFields {
        private final String path;

        Node(String path) {
            this.path = path;
        }

        @Override
        public String name() {
            return "settings" + (path.isEmpty() ? "" : "." + path);
        }

        @Override
        public List<Parameter> parameters() {
            return List.of();
        }

        @Override
        protected Object invoke(Object[] bound, boolean[] given, Call call) {
            Object v = values.get(path);
            if (v == null && !values.containsKey(path)) {
                throw Errors.at(
                        call == null ? null : call.at(), "not_found", "unknown setting " + name());
            }
            return v;
        }

        @Override
        public Object field(String name) {
            if (name.equals("set")) {
                return Builtin.of(
                        name() + ".set",
                        List.of(Parameter.positional()),
                        a -> {
                            set(a.get(0));
                            return Tuple.UNIT;
                        });
            }
            return new Node(path.isEmpty() ? name : path + "." + name);
        }

        private void set(Object value) {
            values.put(path, value);
            boolean applied = path.equals("log.level") || platform.setting(path, value);
            if (!applied && told.add(path)) {
                platform.log(
                        "settings",
                        4,
                        name() + " is a Liquidsoap setting Groovecast has no use for: ignored");
            }
        }

        @Override
        public Set<String> fieldNames() {
            Set<String> out = new TreeSet<>();
            String prefix = path.isEmpty() ? "" : path + ".";
            for (String k : values.keySet()) {
                if (k.startsWith(prefix) && k.length() > prefix.length()) {
                    String rest = k.substring(prefix.length());
                    int dot = rest.indexOf('.');
                    out.add(dot < 0 ? rest : rest.substring(0, dot));
                }
            }
            return out;
        }

        @Override
        public String toString() {
            return "<" + name() + ">";
        }
    }

    /**
     * {@code settings.log.level}: the script's log lines above it are dropped, as Liquidsoap's are
     * (1 critical ... 5 debug; 3 unless the script sets it).
     */
    long logLevel() {
        return values.get("log.level") instanceof Number n ? n.longValue() : 3;
    }

    static Object missing() {
        return Env.MISSING;
    }
}
