package org.groovecast.liquidsoap.engine;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.groovecast.liquidsoap.eval.Args;
import org.groovecast.liquidsoap.eval.Builtin;
import org.groovecast.liquidsoap.eval.Fn;
import org.groovecast.liquidsoap.eval.Getters;
import org.groovecast.liquidsoap.eval.Parameter;
import org.groovecast.liquidsoap.eval.Show;
import org.groovecast.liquidsoap.eval.Tuple;
import org.groovecast.liquidsoap.eval.Values;
import org.groovecast.liquidsoap.prelude.Library;
import org.groovecast.net.harbor.http.HttpReply;
import org.groovecast.net.harbor.http.HttpRequest;

/**
 * Liquidsoap 2.4's HTTP server on the engine's harbor: {@code harbor.http.register(port=, method=,
 * path, fun (req, res) -> ...)} behind the script's middlewares ({@code
 * harbor.http.middleware.register}), {@code harbor.http.register.simple(path, fun (req) ->
 * http.response(...))}, {@code http.response(...)}, and {@code server.harbor(port=, uri=)}: the
 * control commands over HTTP as Liquidsoap serves them, guarded by the script's middlewares (or,
 * given Groovecast's {@code key=}, by the engine's own key check). Every route is the engine's
 * {@code harbor.http.register}: its handler runs on a virtual thread, off the event loop, and one
 * that raises answers 500, logged once with the script's place.
 */
final class HarborHttp {
    /** {@code req}. */
    static final String REQUEST =
            "{body : (?timeout : float) -> string, data : (?timeout : float) -> string, headers :"
                    + " [(string * string)], http_version : string, method : string, path : string,"
                    + " query : [(string * string)]}";

    /** {@code res}, and what {@code http.response(...)} answers. */
    static final String RESPONSE =
            "(() -> string).{http_version : ((string) -> unit).{current : () -> string},"
                    + " status_code : ((int) -> unit).{current : () -> int},"
                    + " status_message : ((string?) -> unit).{current : () -> string?},"
                    + " headers : (([(string * string)]) -> unit).{current : () -> [(string * string)]},"
                    + " header : (string, string) -> unit,"
                    + " redirect : (?status_code : int, string) -> unit,"
                    + " json : 'a.(?compact : bool, 'a) -> unit,"
                    + " html : (string) -> unit,"
                    + " content_type : ((string?) -> unit).{current : () -> string?},"
                    + " data : (({string}) -> unit).{current : () -> {string}},"
                    + " status_sent : () -> bool}";

    private static final String HANDLER = "(" + REQUEST + ", " + RESPONSE + ") -> unit";

    private static final String ROUTE =
            "?transport : http_transport, ?port : int, ?method : string, string";

    private final EngineValues values;
    private final OperatorBridge.Caller caller;
    private final Middleware middleware = new Middleware();

    private HarborHttp(EngineValues values, OperatorBridge.Caller caller) {
        this.values = values;
        this.caller = caller;
    }

    /** Registers the functions in {@code lib}, replacing the engine's of the same names. */
    static void register(Library lib, EngineValues values, OperatorBridge.Caller caller) {
        HarborHttp h = new HarborHttp(values, caller);
        Map<String, Object> route = Map.of("port", 8000L, "method", "GET");
        lib.function(
                "http.response",
                "(?http_version : string, ?status_code : int?, ?status_message : string?, ?headers"
                        + " : [(string * string)], ?content_type : string?, ?data : {string}) -> "
                        + RESPONSE,
                "An HTTP answer to fill: res.status_code(n), res.header(k, v), res.json(v)...",
                Map.of("http_version", "1.1", "headers", List.of(), "data", ""),
                a ->
                        new HttpResponse(
                                a.string(0),
                                a.isNull(1) ? 200 : a.integer(1),
                                a.isNull(2) ? null : a.string(2),
                                a.list(3),
                                a.isNull(4) ? null : a.string(4),
                                a.get(5)));
        lib.function(
                "harbor.http.register",
                "(" + ROUTE + ", " + HANDLER + ") -> unit",
                "An HTTP endpoint on the harbor, node/express style: fun (req, res) -> ... fills res;"
                        + " ':name' path fragments are in req.query; the script's middlewares run first.",
                route,
                a -> {
                    Fn handler = a.fn(4);
                    h.route(a, a.string(2), a.string(3), r -> h.answer(r, handler));
                    return Tuple.UNIT;
                });
        lib.function(
                "harbor.http.register.simple",
                "(" + ROUTE + ", (" + REQUEST + ") -> {string}) -> unit",
                "An HTTP endpoint on the harbor: fun (req) -> http.response(...).",
                route,
                a -> {
                    Fn handler = a.fn(4);
                    h.route(
                            a,
                            a.string(2),
                            a.string(3),
                            r -> answer(handler.call(HttpRequests.of(r))));
                    return Tuple.UNIT;
                });
        lib.function(
                "harbor.http.middleware.register",
                // next takes what the middleware hands on, typed by its use there: a response
                // the middleware read as a plain function (res.status_code(401)) is the response
                "((" + REQUEST + ", " + RESPONSE + ", ('q, 'r) -> unit) -> unit) -> unit",
                "A middleware, fun (req, res, next) -> ...: every harbor.http.register request goes"
                        + " through it; next(req, res) goes on to the next one and the handler.",
                a -> {
                    h.middleware.register(a.fn(0));
                    return Tuple.UNIT;
                });
        lib.function(
                "server.harbor",
                "(?transport : http_transport, ?port : int, ?uri : string, ?key : string?) -> unit",
                "The control commands over HTTP: POST a command line to uri, the answer is its"
                        + " output. Guarded by the script's middlewares, as in Liquidsoap; with key=,"
                        + " by Groovecast's X-Liquidsoap-Api-Key check instead.",
                Map.of("port", 8000L, "uri", "/telnet"),
                h::serverHarbor);
    }

    private interface Answer {
        HttpReply to(HttpRequest r);
    }

    /** The engine's {@code harbor.http.register}, its handler {@code answer}. */
    private void route(Args a, String method, String path, Answer answer) {
        Fn engineHandler =
                Builtin.of(
                        "harbor handler",
                        List.of(Parameter.positional()),
                        x -> answer.to((HttpRequest) Values.base(x.get(0))));
        Map<String, Object> named = new LinkedHashMap<>();
        named.put("port", a.integer(1));
        named.put("method", method);
        caller.call(
                "harbor.http.register",
                new Object[] {named, path, values.closure(engineHandler)},
                a.at());
    }

    /** A request through the middlewares to {@code handler}; the response it filled. */
    HttpReply answer(HttpRequest r, Fn handler) {
        HttpResponse res = HttpResponse.empty();
        middleware.run(HttpRequests.of(r), res, handler);
        return res.reply();
    }

    /**
     * What a simple handler answered: an {@code http.response(...)}, or the text of a whole HTTP
     * answer (a string, or a getter read once), or else a plain text body.
     */
    static HttpReply answer(Object v) {
        if (Values.base(v) instanceof HttpResponse r) return r.reply();
        return RawHttp.parse(Show.text(Getters.get(v)));
    }

    private Object serverHarbor(Args a) {
        long port = a.integer(1);
        String uri = a.string(2).startsWith("/") ? a.string(2) : "/" + a.string(2);
        if (!a.isNull(3)) {
            Map<String, Object> named = new LinkedHashMap<>();
            named.put("port", port);
            named.put("path", uri);
            named.put("key", a.string(3));
            caller.call("server.harbor", new Object[] {named}, a.at());
            return Tuple.UNIT;
        }
        Fn page =
                Builtin.of(
                        "server.harbor page",
                        List.of(Parameter.positional(), Parameter.positional()),
                        x -> {
                            response(x.get(1)).html(CommandPage.html(uri));
                            return Tuple.UNIT;
                        });
        Fn command =
                Builtin.of(
                        "server.harbor command",
                        List.of(Parameter.positional(), Parameter.positional()),
                        x -> {
                            Object body = ((Fn) Values.fields(x.get(0)).get("body")).call();
                            String out =
                                    Show.text(
                                            caller.call(
                                                    "server.execute",
                                                    new Object[] {
                                                        Map.of(), Show.text(body).strip()
                                                    },
                                                    null));
                            response(x.get(1)).text(out.endsWith("\n") ? out : out + "\n");
                            return Tuple.UNIT;
                        });
        route(a, "GET", uri, r -> answer(r, page));
        route(a, "POST", uri, r -> answer(r, command));
        return Tuple.UNIT;
    }

    private static HttpResponse response(Object res) {
        if (Values.base(res) instanceof HttpResponse r) return r;
        throw org.groovecast.liquidsoap.eval.Errors.invalid(
                "a middleware passed on something else than the response: " + Values.describe(res));
    }
}
