package org.groovecast.host.http;

import static org.groovecast.api.ValueType.ANY;
import static org.groovecast.api.ValueType.BOOLEAN;
import static org.groovecast.api.ValueType.MAP;
import static org.groovecast.api.ValueType.NUMBER;
import static org.groovecast.api.ValueType.STRING;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.groovecast.api.OperatorSpec;

/**
 * {@code http.get/post/put/head/delete(url, headers:, data:, timeout:, redirect:)}: a request that
 * blocks its caller until the answer, an {@link HttpResult}. Callers that may block are a {@code
 * thread.run(fast: false)} function, a request resolver, a handler run off the event loop, or the
 * script itself while it loads; anywhere else the call is refused (see {@link BlockingGuard}).
 */
public final class HttpFunctions {
    /**
     * What the specs return, for the static type checker: {@code r.status} is known to be an int.
     */
    public static final Class<?> RESULT = HttpResult.class;

    private HttpFunctions() {}

    public static List<OperatorSpec> specs() {
        List<OperatorSpec> specs = new ArrayList<>();
        for (String method : List.of("get", "post", "put", "head", "delete")) {
            boolean body = !method.equals("get") && !method.equals("head");
            String name = "http." + method;
            OperatorSpec.Builder b =
                    OperatorSpec.named(name)
                            .doc(
                                    "An HTTP "
                                            + method.toUpperCase(Locale.ROOT)
                                            + " request; returns status, headers and body "
                                            + "(and reads as its body). Blocks its caller: call it inside thread.run(fast: false), "
                                            + "a request resolver or a harbor handler off the event loop, never on a clock.")
                            .positional("url", STRING, "an http:// or https:// URL")
                            .named("headers", MAP, Map.of(), "request headers: [name: value]")
                            .named("timeout", NUMBER, 10.0, "seconds for the whole exchange")
                            .named("redirect", BOOLEAN, true, "follow redirects");
            if (body) b.named("data", STRING, "", "the request body, sent as UTF-8");
            specs.add(
                    b.returns(ANY)
                            .create(
                                    a -> {
                                        BlockingGuard.check(name + "()");
                                        String data = body ? a.string("data") : null;
                                        if (method.equals("delete") && data.isEmpty()) data = null;
                                        return HttpRequests.send(
                                                method.toUpperCase(Locale.ROOT),
                                                a.string("url"),
                                                a.map("headers"),
                                                data,
                                                a.number("timeout"),
                                                a.bool("redirect"));
                                    }));
        }
        return specs;
    }
}
