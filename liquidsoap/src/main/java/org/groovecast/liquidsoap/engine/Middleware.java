package org.groovecast.liquidsoap.engine;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.groovecast.liquidsoap.eval.Builtin;
import org.groovecast.liquidsoap.eval.Fn;
import org.groovecast.liquidsoap.eval.Parameter;
import org.groovecast.liquidsoap.eval.Tuple;

/**
 * {@code harbor.http.middleware.register(fun (req, res, next) -> ...)}: every request of every
 * {@code harbor.http.register} handler of the script goes through the middlewares, the first
 * registered outermost, each deciding whether to go on with {@code next(req, res)} (AzuraCast's
 * token check answers 401 and does not). As in Liquidsoap, the chain is read when a request comes,
 * so a middleware registered after a handler still guards it.
 */
final class Middleware {
    private final List<Fn> chain = new CopyOnWriteArrayList<>();

    void register(Fn middleware) {
        chain.add(middleware);
    }

    /** {@code handler(req, res)} behind the middlewares registered now. */
    void run(Object req, Object res, Fn handler) {
        step(List.copyOf(chain), 0, req, res, handler);
    }

    private static void step(List<Fn> chain, int i, Object req, Object res, Fn handler) {
        if (i == chain.size()) {
            handler.call(req, res);
            return;
        }
        Fn next =
                Builtin.of(
                        "next",
                        List.of(Parameter.positional(), Parameter.positional()),
                        a -> {
                            step(chain, i + 1, a.get(0), a.get(1), handler);
                            return Tuple.UNIT;
                        });
        chain.get(i).call(req, res, next);
    }
}
