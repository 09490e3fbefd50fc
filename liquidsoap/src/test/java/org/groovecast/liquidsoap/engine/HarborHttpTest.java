package org.groovecast.liquidsoap.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.groovecast.api.OperatorSpec;
import org.groovecast.api.UserFunction;
import org.groovecast.api.ValueType;
import org.groovecast.host.script.ScriptFrontEnd;
import org.groovecast.host.script.ScriptFunctions;
import org.groovecast.host.script.ScriptRuntime;
import org.groovecast.host.script.ScriptSettings;
import org.groovecast.net.harbor.http.HttpReply;
import org.groovecast.net.harbor.http.HttpRequest;
import org.junit.jupiter.api.Test;

/**
 * Liquidsoap's harbor HTTP API over the engine's {@code harbor.http.register}, which these tests
 * stand in for: they keep the routes a script registers and call them as the harbor does, with a
 * request, reading the reply the handler and its middlewares filled.
 */
class HarborHttpTest {
    private static final ScriptSettings NO_SETTINGS = ScriptSettings.none();

    private static final Object FAILED = new Object();

    /** A route the script registered on the stand-in harbor. */
    private record Route(long port, String method, String path, UserFunction handler) {}

    private final List<Route> routes = new ArrayList<>();
    private final List<String> executed = new ArrayList<>();
    private final List<Map<String, Object>> keyed = new ArrayList<>();

    private void load(String text) {
        ScriptFunctions functions = new ScriptFunctions();
        functions.add(
                OperatorSpec.named("harbor.http.register")
                        .positional("path", ValueType.STRING, "")
                        .named("port", ValueType.INTEGER, 8000, "")
                        .named("method", ValueType.STRING, "GET", "")
                        .positional("handler", ValueType.FUNCTION, "")
                        .calls("the request")
                        .returns(ValueType.NONE)
                        .create(
                                a -> {
                                    routes.add(
                                            new Route(
                                                    a.integer("port"),
                                                    a.string("method"),
                                                    a.string("path"),
                                                    a.function("handler")));
                                    return null;
                                }),
                "test");
        functions.add(
                OperatorSpec.named("server.execute")
                        .positional("command", ValueType.STRING, "")
                        .returns(ValueType.STRING)
                        .create(
                                a -> {
                                    executed.add(a.string("command"));
                                    return "done " + a.string("command") + "\n";
                                }),
                "test");
        functions.add(
                OperatorSpec.named("server.harbor")
                        .named("port", ValueType.INTEGER, 8000, "")
                        .named("path", ValueType.STRING, "/telnet", "")
                        .requiredNamed("key", ValueType.STRING, "")
                        .returns(ValueType.NONE)
                        .create(
                                a -> {
                                    Map<String, Object> m = new LinkedHashMap<>();
                                    m.put("port", a.integer("port"));
                                    m.put("path", a.string("path"));
                                    m.put("key", a.string("key"));
                                    keyed.add(m);
                                    return null;
                                }),
                "test");
        ScriptFrontEnd.Script s =
                new LiquidsoapFrontEnd().load("x.liq", text, functions, NO_SETTINGS);
        s.run(new ScriptRuntime(s.files(), functions, NO_SETTINGS, (src, line) -> {}, null));
    }

    private Route route(String method, String path) {
        return routes.stream()
                .filter(r -> r.method().equals(method) && r.path().equals(path))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no route " + method + " " + path));
    }

    private static HttpRequest request(
            String method, String path, Map<String, String> headers, String body) {
        return new HttpRequest(
                method,
                path,
                Map.of("q", "search"),
                headers,
                Map.of("id", "42"),
                body.getBytes(StandardCharsets.UTF_8));
    }

    private HttpReply call(String method, String path, Map<String, String> headers, String body) {
        return call(method, path, path, headers, body);
    }

    /** A request for {@code path} to the route registered as {@code route} ("/items/:id"). */
    private HttpReply call(
            String method, String route, String path, Map<String, String> headers, String body) {
        Object r =
                route(method, route).handler().callOr(FAILED, request(method, path, headers, body));
        if (r == FAILED) return null;
        return (HttpReply) r;
    }

    /** AzuraCast's shape: a logging middleware, then a token check, then the handlers. */
    private static final String API =
            """
            trace = ref([])
            def log_requests(req, res, next)
              trace := [...trace(), "log in"]
              next(req, res)
              trace := [...trace(), "log out #{res.status_code.current()}"]
            end
            harbor.http.middleware.register(log_requests)
            def check_token(req, res, next)
              trace := [...trace(), "token"]
              if req.headers["x-liquidsoap-api-key"] != "k" then
                res.status_code(401)
              else
                next(req, res)
              end
            end
            harbor.http.middleware.register(check_token)
            harbor.http.register(port=8004, method="POST", "/items/:id", fun (req, res) -> begin
              trace := [...trace(), "handler"]
              res.json({
                method = req.method, path = req.path, id = req.query["id"], q = req.query["q"],
                key = req.headers["x-liquidsoap-api-key"], body = req.body(), again = req.body(),
                data = req.data(), rest = req.data(), version = req.http_version
              })
            end)
            harbor.http.register(port=8004, "/trace", fun (_, res) -> res.data(string.concat(separator=",", trace())))
            """;

    @Test
    void theRequestRecordCarriesMethodPathHeadersQueryAndBody() {
        load(API);
        Route r = route("POST", "/items/:id");
        assertEquals(8004, r.port());
        // as a PHP client sends it: Liquidsoap's names are in lower case
        HttpReply reply =
                call(
                        "POST",
                        "/items/:id",
                        "/items/42",
                        Map.of("X-Liquidsoap-Api-Key", "k"),
                        "payload");
        assertEquals(200, reply.status());
        assertEquals("application/json; charset=utf-8", reply.contentType());
        assertEquals(
                "{\"method\":\"POST\",\"path\":\"/items/42\",\"id\":\"42\",\"q\":\"search\","
                        + "\"key\":\"k\",\"body\":\"payload\",\"again\":\"payload\","
                        + "\"data\":\"payload\",\"rest\":\"\",\"version\":\"1.1\"}\n",
                reply.data());
    }

    @Test
    void middlewaresRunFirstRegisteredOutermostAndOneMayAnswerWithoutTheHandler() {
        load(API);
        HttpReply refused =
                call("POST", "/items/:id", "/items/42", Map.of("x-liquidsoap-api-key", "no"), "");
        assertEquals(401, refused.status());
        assertEquals("", refused.data());
        HttpReply ok =
                call("POST", "/items/:id", "/items/42", Map.of("x-liquidsoap-api-key", "k"), "");
        assertEquals(200, ok.status());
        HttpReply trace = call("GET", "/trace", Map.of("x-liquidsoap-api-key", "k"), "");
        assertEquals(
                "log in,token,log out 401,log in,token,handler,log out 200,log in,token",
                trace.data());
    }

    @Test
    void aMiddlewareRegisteredAfterTheRouteStillGuardsIt() {
        load(
                """
                harbor.http.register("/x", fun (_, res) -> res.data("open"))
                harbor.http.middleware.register(fun (_, res, _) -> res.status_code(403))
                """);
        HttpReply r = call("GET", "/x", Map.of(), "");
        assertEquals(403, r.status());
        assertEquals("", r.data());
    }

    @Test
    void theResponseSettersReadBackAndMakeTheReply() {
        load(
                """
                harbor.http.register("/r", fun (_, res) -> begin
                  res.status_code(404)
                  res.status_message("Gone fishing")
                  res.headers([("X-A", "1")])
                  res.header("X-B", "2")
                  res.content_type("text/csv")
                  res.data("a,b")
                end)
                def read_back(req, res, next)
                  next(req, res)
                  type = res.content_type.current() ?? "none"
                  res.header("X-Read", "#{res.status_code.current()} #{type} #{res.data.current()}")
                end
                harbor.http.middleware.register(read_back)
                harbor.http.register("/go", fun (_, res) -> res.redirect(status_code=302, "/there"))
                harbor.http.register("/page", fun (_, res) -> res.html("<p>hi</p>"))
                harbor.http.register("/pretty", fun (_, res) -> res.json(compact=false, [1, 2]))
                """);
        HttpReply r = call("GET", "/r", Map.of(), "");
        assertEquals(404, r.status());
        assertEquals("text/csv", r.contentType());
        assertEquals(Map.of("X-A", "1", "X-B", "2", "X-Read", "404 text/csv a,b"), r.headers());
        assertEquals("a,b", r.data());
        HttpReply go = call("GET", "/go", Map.of(), "");
        assertEquals(302, go.status());
        assertEquals("/there", go.headers().get("Location"));
        HttpReply page = call("GET", "/page", Map.of(), "");
        assertEquals("text/html", page.contentType());
        assertEquals("<p>hi</p>", page.data());
        assertTrue(call("GET", "/pretty", Map.of(), "").data().toString().contains("\n"));
    }

    @Test
    void aHandlerThatRaisesIsTheEnginesFailureSoTheHarborAnswers500() {
        load(
                """
                harbor.http.register("/boom", fun (_, _) -> error.raise(error.invalid, "boom"))
                """);
        assertSame(
                FAILED,
                route("GET", "/boom")
                        .handler()
                        .callOr(FAILED, request("GET", "/boom", Map.of(), "")));
    }

    @Test
    void theSimpleApiAnswersAnHttpResponseOrHttpText() {
        load(
                """
                harbor.http.register.simple(port=9000, "/made", fun (req) ->
                  http.response(status_code=201, content_type="text/plain", data="made " ^ req.query["id"]))
                harbor.http.register.simple("/raw", fun (_) ->
                  "HTTP/1.1 418 I'm a teapot\\r\\nX-Tea: green\\r\\n\\r\\nshort and stout")
                harbor.http.middleware.register(fun (_, res, _) -> res.status_code(403))
                """);
        assertEquals(9000, route("GET", "/made").port());
        HttpReply made = call("GET", "/made", Map.of(), "");
        // the simple API is not behind the middlewares, as in Liquidsoap
        assertEquals(201, made.status());
        assertEquals("made 42", made.data());
        HttpReply raw = call("GET", "/raw", Map.of(), "");
        assertEquals(418, raw.status());
        assertEquals(Map.of("X-Tea", "green"), raw.headers());
        assertEquals("short and stout", raw.data());
    }

    @Test
    void serverHarborWithoutAKeyServesTheCommandsBehindTheMiddlewares() {
        load(
                """
                harbor.http.middleware.register(fun (req, res, next) ->
                  if req.headers["x-liquidsoap-api-key"] == "k" then next(req, res) else res.status_code(401) end)
                server.harbor(port=8004)
                """);
        assertEquals(8004, route("POST", "/telnet").port());
        assertEquals(401, call("POST", "/telnet", Map.of(), "help").status());
        assertEquals(List.of(), executed);
        HttpReply r = call("POST", "/telnet", Map.of("x-liquidsoap-api-key", "k"), "radio.skip\n");
        assertEquals(200, r.status());
        assertEquals("done radio.skip\n", r.data());
        assertEquals(List.of("radio.skip"), executed);
        assertEquals(
                "text/html",
                call("GET", "/telnet", Map.of("x-liquidsoap-api-key", "k"), "").contentType());
    }

    @Test
    void serverHarborWithAKeyIsTheEnginesKeyedEndpoint() {
        load("server.harbor(port=8004, uri=\"/cmd\", key=\"s3cret\")");
        assertEquals(List.of(Map.of("port", 8004, "path", "/cmd", "key", "s3cret")), keyed);
        assertEquals(List.of(), routes);
    }

    @Test
    void mistakesWithTheRecordsAreRefusedAtCheck() {
        RuntimeException e =
                assertThrows(
                        RuntimeException.class,
                        () ->
                                load(
                                        """
                                        harbor.http.register("/x", fun (req, res) ->
                                          res.status_code(req.path))
                                        """));
        // the handler as a whole is refused at its place, the mismatch named
        assertTrue(e.getMessage().startsWith("x.liq:1:27: this value has type"), e.getMessage());
        assertTrue(
                e.getMessage().contains("status_code : (string, ...)")
                        && e.getMessage().contains("status_code : (int, ...)"),
                e.getMessage());
    }
}
