package org.groovecast.liquidsoap.engine;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.groovecast.liquidsoap.eval.Builtin;
import org.groovecast.liquidsoap.eval.Call;
import org.groovecast.liquidsoap.eval.Env;
import org.groovecast.liquidsoap.eval.Fn;
import org.groovecast.liquidsoap.eval.Getters;
import org.groovecast.liquidsoap.eval.HasFields;
import org.groovecast.liquidsoap.eval.Json;
import org.groovecast.liquidsoap.eval.Parameter;
import org.groovecast.liquidsoap.eval.Rec;
import org.groovecast.liquidsoap.eval.Show;
import org.groovecast.liquidsoap.eval.Tuple;
import org.groovecast.liquidsoap.eval.Values;
import org.groovecast.net.harbor.http.HttpReply;

/**
 * Liquidsoap's {@code http.response(...)}: the answer a harbor handler fills ({@code
 * res.status_code(401)}, {@code res.header(k, v)}, {@code res.json(v)}, {@code res.data(s)}...),
 * each setter with a {@code current} field that reads it back ({@code res.status_code.current()}).
 * Called as a function it is the whole HTTP answer as text, once, then {@code ""}, as Liquidsoap's
 * string getter; the harbor sends {@link #reply()}. One request's handlers fill it on one thread.
 */
final class HttpResponse extends Fn implements HasFields {
    /** The fields, for the checker's type (see {@link HarborHttp#RESPONSE}) and for Show. */
    private static final Set<String> FIELDS =
            Set.of(
                    "http_version",
                    "status_code",
                    "status_message",
                    "headers",
                    "header",
                    "redirect",
                    "json",
                    "html",
                    "content_type",
                    "data",
                    "status_sent");

    private String httpVersion;
    private long statusCode;
    private String statusMessage;

    /** Newest first, as Liquidsoap's {@code header} puts them. */
    private List<Object> headers;

    private String contentType;

    /** A string or a string getter. */
    private Object data;

    private boolean rendered;

    HttpResponse(
            String httpVersion,
            long statusCode,
            String statusMessage,
            List<Object> headers,
            String contentType,
            Object data) {
        this.httpVersion = httpVersion;
        this.statusCode = statusCode;
        this.statusMessage = statusMessage;
        this.headers = new ArrayList<>(headers);
        this.contentType = contentType;
        this.data = data;
    }

    /** A fresh answer: 200, no headers, no data. */
    static HttpResponse empty() {
        return new HttpResponse("1.1", 200, null, List.of(), null, "");
    }

    long statusCode() {
        return statusCode;
    }

    /** What the harbor sends: the status, the headers, the content type and the data as text. */
    HttpReply reply() {
        Map<String, String> out = new LinkedHashMap<>();
        String type = contentType;
        for (Object h : headers.reversed()) {
            if (!(Values.base(h) instanceof Tuple t) || t.size() != 2) continue;
            String name = Show.text(t.get(0));
            String value = Show.text(t.get(1));
            if (name.equalsIgnoreCase("content-type")) {
                if (type == null) type = value;
            } else {
                out.put(name, value);
            }
        }
        return new HttpReply((int) statusCode, type, out, body());
    }

    private String body() {
        Object d = Values.base(data);
        if (!(d instanceof Fn)) return Show.text(d);
        // A getter: read until it answers "", as Liquidsoap's chunked answers are.
        StringBuilder all = new StringBuilder();
        for (int i = 0; i < 1_000_000; i++) {
            String piece = Show.text(Getters.get(d));
            if (piece.isEmpty()) break;
            all.append(piece);
        }
        return all.toString();
    }

    /** {@code res()}: the answer as HTTP text, once. */
    @Override
    protected Object invoke(Object[] bound, boolean[] given, Call call) {
        if (rendered) return "";
        rendered = true;
        HttpReply r = reply();
        String text = r.data() == null ? "" : r.data().toString();
        StringBuilder out = new StringBuilder();
        out.append("HTTP/")
                .append(httpVersion)
                .append(' ')
                .append(statusCode)
                .append(' ')
                .append(
                        statusMessage != null
                                ? statusMessage
                                : HttpAnswers.message((int) statusCode))
                .append("\r\n");
        if (!text.isEmpty())
            out.append("Content-Length: ")
                    .append(text.getBytes(StandardCharsets.UTF_8).length)
                    .append("\r\n");
        if (r.contentType() != null)
            out.append("Content-type: ").append(r.contentType()).append("\r\n");
        r.headers().forEach((k, v) -> out.append(k).append(": ").append(v).append("\r\n"));
        return out.append("\r\n").append(text).toString();
    }

    @Override
    public String name() {
        return "http.response";
    }

    @Override
    public List<Parameter> parameters() {
        return List.of();
    }

    @Override
    public Set<String> fieldNames() {
        return FIELDS;
    }

    @Override
    public Object field(String name) {
        return switch (name) {
            case "http_version" ->
                    attribute(name, () -> httpVersion, v -> httpVersion = Show.text(v));
            case "status_code" ->
                    attribute(
                            name,
                            () -> statusCode,
                            v -> statusCode = ((Number) Values.base(v)).longValue());
            case "status_message" ->
                    attribute(
                            name,
                            () -> statusMessage,
                            v -> statusMessage = Values.base(v) == null ? null : Show.text(v));
            case "headers" ->
                    attribute(
                            name,
                            () -> List.copyOf(headers),
                            v -> headers = new ArrayList<>((List<?>) Values.base(v)));
            case "content_type" ->
                    attribute(
                            name,
                            () -> contentType,
                            v -> contentType = Values.base(v) == null ? null : Show.text(v));
            case "data" -> attribute(name, () -> data, v -> data = v);
            case "header" ->
                    Builtin.of(
                            "res.header",
                            List.of(Parameter.positional(), Parameter.positional()),
                            a -> {
                                header(a.string(0), a.string(1));
                                return Tuple.UNIT;
                            });
            case "redirect" ->
                    Builtin.of(
                            "res.redirect",
                            List.of(
                                    new Parameter("status_code", true, 301L),
                                    Parameter.positional()),
                            a -> {
                                statusCode = a.integer(0);
                                header("Location", a.string(1));
                                return Tuple.UNIT;
                            });
            case "json" ->
                    Builtin.of(
                            "res.json",
                            List.of(new Parameter("compact", true, true), Parameter.positional()),
                            a -> {
                                contentType = "application/json; charset=utf-8";
                                data = Json.stringify(a.get(1), !a.bool(0), false) + "\n";
                                return Tuple.UNIT;
                            });
            case "html" ->
                    Builtin.of(
                            "res.html",
                            List.of(Parameter.positional()),
                            a -> {
                                html(a.string(0));
                                return Tuple.UNIT;
                            });
            case "status_sent" -> Builtin.of("res.status_sent", List.of(), a -> false);
            default -> Env.MISSING;
        };
    }

    /** {@code res.html(d)}. */
    void html(String d) {
        contentType = "text/html";
        data = d;
    }

    /** Plain text, as Liquidsoap's {@code server.harbor} answers a command. */
    void text(String d) {
        data = d;
    }

    private void header(String name, String value) {
        headers.addFirst(Tuple.of(name, value));
    }

    /** A setter {@code res.x(v)} with its {@code current} field. */
    private static Object attribute(
            String name,
            java.util.function.Supplier<Object> get,
            java.util.function.Consumer<Object> set) {
        Fn setter =
                Builtin.of(
                        "res." + name,
                        List.of(Parameter.positional()),
                        a -> {
                            set.accept(a.get(0));
                            return Tuple.UNIT;
                        });
        return Rec.with(
                setter,
                "current",
                Builtin.of("res." + name + ".current", List.of(), a -> get.get()));
    }
}
