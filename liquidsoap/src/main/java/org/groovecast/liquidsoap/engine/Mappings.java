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
 * docs/liquidsoap.md shows): another name ({@code switch} is {@code switchOn}), another order of
 * arguments ({@code metadata.map(f, s)} is {@code metadata.map(s, f)}), labels Liquidsoap has and
 * the engine has not (accepted, left out, said once), and functions called with other arguments
 * ({@code input.harbor}'s {@code auth} gets a record, the engine passes user and password).
 */
final class Mappings {
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
                .ignore("single");
        t.add("metadata.map", "metadata.map")
                .order(1, 0)
                .ignore("insert_missing")
                .functionResult(
                        r -> Values.base(r) instanceof List<?> l && l.isEmpty() ? Map.of() : r);
        t.add("cross", "cross")
                .order(1, 0)
                .function("#0", Mappings::crossTransition)
                .ignore(
                        "override_duration",
                        "persist_override",
                        "assume_autocue",
                        "width",
                        "start_next",
                        "conservative",
                        "active",
                        "minimum");
        t.add("crossfade", "crossfade")
                .ignore(
                        "override_duration",
                        "smart",
                        "default",
                        "high",
                        "medium",
                        "margin",
                        "minimum",
                        "width",
                        "conservative",
                        "persist_override",
                        "assume_autocue",
                        "start_next",
                        "deduplicate");
        t.add("normalize", "normalize")
                .label("gain_max", "maxGain")
                .ignore(
                        "window",
                        "gain_min",
                        "down",
                        "up",
                        "lookahead",
                        "track_sensitive",
                        "debug");
        t.add("blank.detect", "blank.detect").order(1, 0).ignore("min_noise", "track_sensitive");
        t.add("output.icecast", "output.icecast")
                .ignore(
                        "encoding",
                        "icy_metadata",
                        "send_icy_metadata",
                        "protocol",
                        "verb",
                        "chunked",
                        "connection_timeout",
                        "on_connect",
                        "on_disconnect",
                        "on_start",
                        "on_stop",
                        "start",
                        "restart_delay",
                        "dumpfile",
                        "transport",
                        "icy_id",
                        "headers",
                        "song_metadata");
        t.add("output.harbor", "output.harbor")
                .ignore(
                        "encoding",
                        "icy_metadata",
                        "send_icy_metadata",
                        "headers",
                        "chunked",
                        "on_start",
                        "on_stop",
                        "start",
                        "transport",
                        "format",
                        "buffer");
        t.add("input.harbor", "input.harbor")
                .function("auth", Mappings::harborAuth)
                .function("on_connect", Mappings::harborConnect)
                .ignore(
                        "icy_metadata_charset",
                        "metadata_charset",
                        "replay_metadata",
                        "logfile",
                        "debug",
                        "transport");
        t.add("input.http", "input.http")
                .label("max_buffer", "max")
                .ignore(
                        "self_sync",
                        "on_connect",
                        "on_disconnect",
                        "user_agent",
                        "poll_delay",
                        "new_track_on_metadata",
                        "force_mime",
                        "max_buffer_size");
        t.add("request.dynamic", "request.dynamic")
                .ignore("available", "synchronous", "native", "thread_queue");
        t.add("request.queue", "request.queue").ignore("native", "interactive", "thread_queue");
        t.add("playlist", "playlist")
                .ignore(
                        "check_next",
                        "conservative",
                        "loop",
                        "mime_type",
                        "native",
                        "on_reload",
                        "prefix",
                        "default_duration",
                        "length",
                        "cue_in_metadata",
                        "cue_out_metadata",
                        "thread_queue");
        t.add("output.file", "output.file")
                .ignore(
                        "append",
                        "reopen_when",
                        "perm",
                        "dir_perm",
                        "on_start",
                        "on_stop",
                        "start",
                        "encoding");
        t.add("output.file.hls", "output.file.hls")
                .ignore(
                        "playlist",
                        "segments_overhead",
                        "segment_name",
                        "persist_at",
                        "temp_dir",
                        "on_file_change",
                        "streams_info",
                        "perm",
                        "encode_metadata",
                        "perms",
                        "start",
                        "on_start",
                        "on_stop");
        t.add("sine", "sine").ignore("duration");
        t.add("delay", "delay").ignore("initial");
        t.add("max_duration", "maxDuration").ignore("override");
        t.add("fade.in", "fade.in")
                .ignore(
                        "override_duration",
                        "override_type",
                        "track_sensitive",
                        "initial_metadata");
        t.add("fade.out", "fade.out")
                .ignore(
                        "override_duration",
                        "override_type",
                        "track_sensitive",
                        "initial_metadata");
        t.add("fallback", "fallback").ignore("effective_source");
        t.add("compress", "compress")
                .ignore("knee", "lookahead", "window", "wet", "pre_gain", "debug");
        t.add("protocol.add", "protocol.add")
                .function("#1", Mappings::resolver)
                .ignore("doc", "syntax", "static")
                .functionResult(Mappings::uris);
        for (String verb : List.of("get", "post", "put", "head", "delete")) {
            t.add("http." + verb, "http." + verb).ignore("http_version").result(HttpAnswers::of);
        }
        for (String kind : List.of("float", "bool", "string")) {
            t.add("interactive." + kind, "interactive." + kind)
                    .ignore("description", "step", "unit", "persistent")
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
