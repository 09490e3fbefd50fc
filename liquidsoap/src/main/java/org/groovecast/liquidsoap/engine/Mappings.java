package org.groovecast.liquidsoap.engine;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.groovecast.api.Condition;
import org.groovecast.liquidsoap.eval.Builtin;
import org.groovecast.liquidsoap.eval.Call;
import org.groovecast.liquidsoap.eval.Closure;
import org.groovecast.liquidsoap.eval.Fn;
import org.groovecast.liquidsoap.eval.Parameter;
import org.groovecast.liquidsoap.eval.Rec;
import org.groovecast.liquidsoap.eval.TimePredicate;
import org.groovecast.liquidsoap.eval.Tuple;
import org.groovecast.liquidsoap.eval.Values;
import org.groovecast.liquidsoap.syntax.Expr;

/**
 * The operators whose Liquidsoap call differs from Groovecast's beyond the naming rule (the table
 * docs/reference/liquidsoap.md shows): another name ({@code switch} is {@code switchOn}), another
 * order of arguments ({@code metadata.map(f, s)} is {@code metadata.map(s, f)}), labels Liquidsoap
 * has and the engine has not (accepted, left out, said once), and functions called with other
 * arguments ({@code input.harbor}'s {@code auth} gets a record, the engine passes user and
 * password).
 */
final class Mappings {
    /** Liquidsoap's metadata. */
    private static final String METADATA = "[(string * string)]";

    /** A switch's transitions: from the source left to the one selected. */
    private static final String TRANSITIONS = "[(source('a), source('a)) -> source('a)]";

    /** One side of a cross transition. */
    private static final String CROSS_SIDE =
            "{source : source('a), db_level : float, metadata : " + METADATA + "}";

    private final Map<String, Mapping> byEngine = new LinkedHashMap<>();

    Mapping forEngine(String engine) {
        return byEngine.get(engine);
    }

    List<Mapping> all() {
        return List.copyOf(byEngine.values());
    }

    private Mapping add(String liquidsoap, String engine) {
        Mapping m = new Mapping(liquidsoap, engine);
        byEngine.put(engine, m);
        return m;
    }

    static Mappings standard(EngineValues values) {
        Mappings t = new Mappings();
        t.add("switch", "switchOn")
                .argument("#0", cases -> switchCases(cases, values))
                .type("#0", "[((() -> bool) * source('a))]")
                .type("transitions", TRANSITIONS)
                .ignore("single : [bool]");
        t.add("metadata.map", "metadata.map")
                .order(1, 0)
                .type("#0", "(" + METADATA + ") -> " + METADATA)
                .ignore("insert_missing : bool?")
                .functionResult(
                        r -> Values.base(r) instanceof List<?> l && l.isEmpty() ? Map.of() : r);
        t.add("cross", "cross")
                .order(1, 0)
                .function("#0", Mappings::crossTransition)
                .type("#0", "(" + CROSS_SIDE + ", " + CROSS_SIDE + ") -> source('a)")
                .ignore(
                        "override_duration : string",
                        "persist_override : bool",
                        "assume_autocue : bool",
                        "width : {float}",
                        "start_next",
                        "conservative",
                        "active",
                        "minimum");
        t.add("crossfade", "crossfade")
                .ignore(
                        "override_duration : string",
                        "smart",
                        "default",
                        "high",
                        "medium",
                        "margin",
                        "minimum",
                        "width : {float}",
                        "conservative",
                        "persist_override : bool",
                        "assume_autocue : bool",
                        "start_next",
                        "deduplicate : bool");
        t.add("normalize", "normalize")
                .label("gain_max", "maxGain")
                .ignore(
                        "window : {float}",
                        "gain_min : float",
                        "down : {float}",
                        "up : {float}",
                        "lookahead : {float}",
                        "track_sensitive : bool",
                        "debug : float?");
        t.add("blank.detect", "blank.detect")
                .order(1, 0)
                .type("#0", "() -> unit")
                .ignore("min_noise : {float}", "track_sensitive : {bool}");
        t.add("output.icecast", "output.icecast")
                .type("on_error", "(string) -> float")
                .ignore(
                        "encoding : string?",
                        "icy_metadata : [string]",
                        "send_icy_metadata : bool?",
                        "protocol : string",
                        "verb",
                        "chunked : bool",
                        "connection_timeout : float?",
                        "on_connect : () -> unit",
                        "on_disconnect : () -> unit",
                        "on_start : () -> unit",
                        "on_stop : () -> unit",
                        "start : bool",
                        "restart_delay",
                        "dumpfile : string?",
                        "transport : http_transport",
                        "icy_id : int",
                        "headers : " + METADATA,
                        "song_metadata");
        t.add("output.shoutcast", "output.shoutcast").type("on_error", "(string) -> float");
        t.add("output.harbor", "output.harbor")
                .function("on_connect", Mappings::listenerConnect)
                .function("on_disconnect", Mappings::listenerDisconnect)
                .type(
                        "on_connect",
                        "(headers : "
                                + METADATA
                                + ", uri : string, protocol : string, string) -> unit")
                .type("on_disconnect", "(string) -> unit")
                .ignore(
                        "encoding : string",
                        "icy_metadata",
                        "send_icy_metadata",
                        "headers : " + METADATA,
                        "chunked",
                        "on_start : () -> unit",
                        "on_stop : () -> unit",
                        "start : bool",
                        "transport : http_transport",
                        "format",
                        "buffer : int");
        t.add("input.harbor", "input.harbor")
                .function("auth", Mappings::harborAuth)
                .function("on_connect", Mappings::harborConnect)
                .type("auth", "({user : string, password : string, address : string}) -> bool")
                .type("on_connect", "(" + METADATA + ") -> unit")
                .type("on_disconnect", "() -> unit")
                .method("on_connect", "(synchronous : bool, (" + METADATA + ") -> unit) -> unit")
                .method("on_disconnect", "(synchronous : bool, () -> unit) -> unit")
                .ignore(
                        "icy_metadata_charset : string?",
                        "metadata_charset : string?",
                        "replay_metadata : bool",
                        "logfile : string?",
                        "debug : bool",
                        "transport : http_transport");
        t.add("input.http", "input.http")
                .label("max_buffer", "max")
                .ignore(
                        "self_sync : bool",
                        "on_connect : (" + METADATA + ") -> unit",
                        "on_disconnect : () -> unit",
                        "user_agent : string",
                        "poll_delay : float",
                        "new_track_on_metadata : bool",
                        "force_mime : string?",
                        "max_buffer_size");
        t.add("request.dynamic", "request.dynamic")
                .type("#0", "() -> request?")
                .ignore(
                        "available : {bool}",
                        "synchronous : bool",
                        "native : bool",
                        "thread_queue : string");
        t.add("request.queue", "request.queue")
                .type("queue", "[request]")
                .method("push", "(request) -> unit")
                .method("flush_and_skip", "() -> unit")
                .ignore("native : bool", "interactive : bool", "thread_queue : string");
        t.add("playlist", "playlist")
                .type("#0", "string")
                .ignore(
                        "check_next : ((request) -> bool)?",
                        "conservative",
                        "loop : bool",
                        "mime_type : string?",
                        "native : bool",
                        "on_reload : (string) -> unit",
                        "prefix : string",
                        "default_duration",
                        "length",
                        "cue_in_metadata : string?",
                        "cue_out_metadata : string?",
                        "thread_queue : string");
        t.add("output.file", "output.file")
                .type("#1", "{string}")
                .type("on_close", "(string) -> unit")
                .ignore(
                        "append : bool",
                        "reopen_when : {bool}",
                        "perm : int",
                        "dir_perm : int",
                        "on_start : () -> unit",
                        "on_stop : () -> unit",
                        "start : bool",
                        "encoding : string?");
        t.add("output.file.hls", "output.file.hls")
                .type("#1", "[(string * format('a))]")
                .type("segments_overhead", "int?")
                .type("persist_at", "string?")
                .type("temp_dir", "string?")
                .type(
                        "segment_name",
                        "({position : int, extname : string, duration : float, ticks : int,"
                                + " stream_name : string}) -> string")
                .function("segment_name", Mappings::segmentName)
                .ignore(
                        "strict_persist : bool",
                        "on_file_change",
                        "streams_info",
                        "perm : int",
                        "encode_metadata : bool",
                        "perms",
                        "start : bool",
                        "on_start : () -> unit",
                        "on_stop : () -> unit");
        t.add("sine", "sine").ignore("duration : float?");
        t.add("delay", "delay").ignore("initial : bool");
        t.add("max_duration", "maxDuration").ignore("override : string");
        t.add("amplify", "amplify").type("#0", "{float}");
        t.add("add", "add").type("weights", "[float]");
        t.add("rotate", "rotate").type("weights", "[int]");
        t.add("random", "random").type("weights", "[int]");
        t.add("fallback", "fallback").type("transitions", TRANSITIONS).ignore("effective_source");
        for (String way : List.of("in", "out")) {
            t.add("fade." + way, "fade." + way)
                    .ignore(
                            "override_duration : string",
                            "override_type : string",
                            "track_sensitive : bool",
                            "initial_metadata : " + METADATA);
        }
        t.add("compress", "compress")
                .ignore(
                        "knee : {float}",
                        "lookahead : {float}",
                        "window",
                        "wet : {float}",
                        "pre_gain : {float}",
                        "debug");
        t.add("protocol.add", "protocol.add")
                .function("#1", Mappings::resolver)
                .type("#1", "(rlog : (string) -> unit, maxtime : float, string) -> string?")
                .ignore("doc : string", "syntax : string", "static : (string) -> bool")
                .functionResult(Mappings::uris);
        t.add("decoder.metadata.add", "decoder.metadata.add")
                .function("#1", Mappings::metadataResolver)
                .type("#1", "(metadata : " + METADATA + ", string) -> " + METADATA)
                .ignore(
                        "mime_types : [string]?",
                        "file_extensions : [string]?",
                        "priority : {int}",
                        "reentrant : bool")
                .functionResult(EngineValues::metadata);
        for (String verb : List.of("get", "post", "put", "head", "delete")) {
            t.add("http." + verb, "http." + verb)
                    .type("headers", METADATA)
                    .ignore("http_version : string?")
                    .returns(
                            (verb.equals("head") || verb.equals("delete") ? "unit" : "string")
                                    + ".{http_version : string, status_code : int, status_message"
                                    + " : string, headers : "
                                    + METADATA
                                    + "}")
                    .result(HttpAnswers::of)
                    .httpFailure(HttpAnswers::failed);
        }
        for (String kind : List.of("float", "bool", "string")) {
            t.add("interactive." + kind, "interactive." + kind)
                    .ignore(
                            "description : string",
                            "step : float",
                            "unit : string",
                            "persistent : bool",
                            "osc : string")
                    .returns(
                            "(() -> "
                                    + kind
                                    + ").{set : ("
                                    + kind
                                    + ") -> unit, remove : () -> unit}")
                    .result(values::interactive);
        }
        return t;
    }

    /**
     * {@code [(pred, source)]}: a predicate that is only a time ({@code {8h-12h}}) becomes a
     * condition.
     */
    private static Object switchCases(Object cases, EngineValues values) {
        if (!(Values.base(cases) instanceof List<?> l)) return cases;
        List<Object> out = new ArrayList<>(l.size());
        for (Object c : l) {
            if (!(Values.base(c) instanceof Tuple t) || t.size() != 2) {
                out.add(values.toEngine(c));
                continue;
            }
            Object pred = Values.base(t.get(0));
            Object condition =
                    pred instanceof Closure cl && timeOf(cl) != null
                            ? condition(timeOf(cl))
                            : values.toEngine(pred);
            out.add(List.of(condition, t.get(1)));
        }
        return Collections.unmodifiableList(out);
    }

    /** The time a getter {@code { 8h-12h }} is, or null when it is anything else. */
    static TimePredicate timeOf(Closure c) {
        if (!c.isGetter()) return null;
        Expr body = c.body();
        while (body instanceof Expr.Sequence s
                && s.items().size() == 1
                && s.items().getFirst() instanceof Expr e) body = e;
        while (body instanceof Expr.Parens p) body = p.inner();
        return switch (body) {
            case Expr.TimeLit t -> TimePredicate.during(t.span(), t.time());
            case Expr.IntervalLit i -> TimePredicate.between(i.span(), i.from(), i.to());
            default -> null;
        };
    }

    /** Evaluated on the clock, at the frame's time, as the engine's time conditions are. */
    static Condition condition(TimePredicate p) {
        return (context, since) -> p.holds(context.now());
    }

    /**
     * Liquidsoap's transition gets records {source, metadata, db_level}; the engine passes maps.
     */
    private static Fn crossTransition(Fn f) {
        return Builtin.of(
                "cross transition",
                List.of(Parameter.positional(), Parameter.positional()),
                a -> f.call(side(a.get(0)), side(a.get(1))));
    }

    private static Object side(Object pairs) {
        Map<String, Object> fields = new LinkedHashMap<>();
        if (Values.base(pairs) instanceof List<?> l) {
            for (Object p : l) {
                if (Values.base(p) instanceof Tuple t && t.size() == 2) {
                    String k = String.valueOf(t.get(0));
                    fields.put(k.equals("db") ? "db_level" : k, t.get(1));
                }
            }
        }
        if (!fields.containsKey("metadata")) fields.put("metadata", List.of());
        return Rec.record(fields);
    }

    /**
     * {@code segment_name=fun (meta) -> ...}: the engine's map of the segment as the record
     * Liquidsoap 2.4 passes ({@code stream_name} for the engine's {@code streamName}).
     */
    private static Fn segmentName(Fn f) {
        return Builtin.of(
                "segment name",
                List.of(Parameter.positional()),
                a -> {
                    Map<String, Object> fields = new LinkedHashMap<>();
                    if (Values.base(a.get(0)) instanceof List<?> l) {
                        for (Object p : l) {
                            if (Values.base(p) instanceof Tuple t && t.size() == 2) {
                                fields.put(
                                        OperatorNames.toLiquidsoap(String.valueOf(t.get(0))),
                                        t.get(1));
                            }
                        }
                    }
                    return f.call(Rec.record(fields));
                });
    }

    /** {@code auth=fun (info) -> ...}: Liquidsoap's gets {user, password, address}. */
    private static Fn harborAuth(Fn f) {
        return Builtin.of(
                "harbor auth",
                List.of(Parameter.positional(), Parameter.positional()),
                a -> {
                    Map<String, Object> info = new LinkedHashMap<>();
                    info.put(
                            "user",
                            Values.base(a.get(0)) == null
                                    ? ""
                                    : String.valueOf(Values.base(a.get(0))));
                    info.put(
                            "password",
                            Values.base(a.get(1)) == null
                                    ? ""
                                    : String.valueOf(Values.base(a.get(1))));
                    info.put("address", "");
                    return f.call(Rec.record(info));
                });
    }

    /** {@code on_connect}: Liquidsoap's gets the client's headers. */
    private static Fn harborConnect(Fn f) {
        return Builtin.of(
                "harbor on_connect",
                List.of(Parameter.positional()),
                a -> {
                    Object client = a.get(0);
                    Object headers = List.of();
                    if (Values.base(client) instanceof List<?> l) {
                        for (Object p : l) {
                            if (Values.base(p) instanceof Tuple t && "headers".equals(t.get(0)))
                                headers = t.get(1);
                        }
                    }
                    Call.Builder call = Call.at(null);
                    for (Parameter p : f.parameters()) {
                        if (p.label().equals("headers")) call.arg("headers", headers);
                        else if (p.label().equals("uri")) call.arg("uri", "");
                        else if (p.label().equals("protocol")) call.arg("protocol", "icecast");
                    }
                    if (f.parameters().stream().anyMatch(Parameter::isPositional))
                        call.arg(headers);
                    return f.apply(call.build());
                });
    }

    /**
     * {@code output.harbor}'s {@code on_connect}: Liquidsoap's gets the listener's headers, {@code
     * ~uri} and {@code ~protocol}, and its address; the engine passes the listener's session.
     */
    private static Fn listenerConnect(Fn f) {
        return Builtin.of(
                "output.harbor on_connect",
                List.of(Parameter.positional()),
                a -> {
                    Object session = a.get(0);
                    Call.Builder call = Call.at(null);
                    for (Parameter p : f.parameters()) {
                        if (p.label().equals("headers"))
                            call.arg("headers", field(session, "headers", List.of()));
                        else if (p.label().equals("uri"))
                            call.arg("uri", field(session, "uri", ""));
                        else if (p.label().equals("protocol")) call.arg("protocol", "http");
                    }
                    if (f.parameters().stream().anyMatch(Parameter::isPositional))
                        call.arg(field(session, "address", ""));
                    return f.apply(call.build());
                });
    }

    /** {@code output.harbor}'s {@code on_disconnect}: Liquidsoap's gets the listener's address. */
    private static Fn listenerDisconnect(Fn f) {
        return Builtin.of(
                "output.harbor on_disconnect",
                List.of(Parameter.positional()),
                a -> f.apply(Call.at(null).arg(field(a.get(0), "address", "")).build()));
    }

    /**
     * The value of {@code key} in an engine map as the language sees it (pairs), or {@code absent}.
     */
    private static Object field(Object map, String key, Object absent) {
        if (Values.base(map) instanceof List<?> l) {
            for (Object p : l) {
                if (Values.base(p) instanceof Tuple t && key.equals(t.get(0))) return t.get(1);
            }
        }
        return absent;
    }

    /**
     * A protocol's resolver: Liquidsoap's takes {@code ~rlog}, {@code ~maxtime} and the argument.
     */
    private static Fn resolver(Fn f) {
        return Builtin.of(
                "protocol resolver",
                List.of(Parameter.positional(), Parameter.positional()),
                a -> {
                    Call.Builder call = Call.at(null);
                    double left = Values.base(a.get(1)) instanceof Number n ? n.doubleValue() : 30;
                    for (Parameter p : f.parameters()) {
                        if (p.label().equals("rlog")) {
                            call.arg(
                                    "rlog",
                                    Builtin.of(
                                            "rlog",
                                            List.of(Parameter.positional()),
                                            x -> Tuple.UNIT));
                        } else if (p.label().equals("maxtime")) {
                            call.arg("maxtime", System.currentTimeMillis() / 1000.0 + left);
                        }
                    }
                    call.arg(a.get(0));
                    return f.apply(call.build());
                });
    }

    /** A file metadata resolver: Liquidsoap's takes {@code ~metadata} and the file name. */
    private static Fn metadataResolver(Fn f) {
        return Builtin.of(
                "metadata resolver",
                List.of(Parameter.positional(), Parameter.positional()),
                a -> f.apply(Call.at(null).arg("metadata", a.get(1)).arg(a.get(0)).build()));
    }

    /** A resolver's answer: its URIs (requests as theirs), null for none. */
    private static Object uris(Object r) {
        if (!(Values.base(r) instanceof List<?> l)) return r;
        if (l.isEmpty()) return null;
        List<Object> out = new ArrayList<>();
        for (Object x : l)
            out.add(Values.base(x) instanceof LiqRequest q ? q.uri() : Values.base(x));
        return out;
    }
}
