package org.groovecast.liquidsoap.engine;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.groovecast.liquidsoap.eval.Builtin;
import org.groovecast.liquidsoap.eval.Parameter;
import org.groovecast.liquidsoap.eval.Rec;
import org.groovecast.liquidsoap.eval.Tuple;
import org.groovecast.net.harbor.http.HttpRequest;

/**
 * A harbor request as Liquidsoap's handlers read it: {@code req.method}, {@code req.path}, {@code
 * req.headers} (names in lower case, as Liquidsoap gives them), {@code req.query} (the query
 * string's parameters and the path's {@code :name} fragments), {@code req.http_version}, {@code
 * req.body()} (all of it) and {@code req.data()} (what is left to read: all of it once, then {@code
 * ""}). The engine has read the body before the handler runs, so {@code timeout} has nothing to
 * wait for.
 */
final class HttpRequests {
    private HttpRequests() {}

    static Object of(HttpRequest r) {
        Map<String, String> query = new LinkedHashMap<>(r.query());
        query.putAll(r.params());
        String body = r.body();
        AtomicBoolean read = new AtomicBoolean();
        List<Parameter> timeout = List.of(new Parameter("timeout", true, 10.0));
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("body", Builtin.of("req.body", timeout, a -> body));
        f.put("data", Builtin.of("req.data", timeout, a -> read.getAndSet(true) ? "" : body));
        // Liquidsoap's names are in lower case, whatever the client sent: AzuraCast's PHP sends
        // X-Liquidsoap-Api-Key and its runtime reads req.headers["x-liquidsoap-api-key"]
        Map<String, String> headers = new LinkedHashMap<>();
        r.headers().forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT), v));
        f.put("headers", pairs(headers));
        f.put("http_version", "1.1");
        f.put("method", r.method());
        f.put("path", r.path());
        f.put("query", pairs(query));
        return Rec.record(f);
    }

    private static List<Object> pairs(Map<String, String> m) {
        List<Object> out = new ArrayList<>(m.size());
        m.forEach((k, v) -> out.add(Tuple.of(k, v)));
        return Collections.unmodifiableList(out);
    }
}
