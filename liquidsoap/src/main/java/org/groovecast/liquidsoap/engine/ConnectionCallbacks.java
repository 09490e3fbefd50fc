package org.groovecast.liquidsoap.engine;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import org.groovecast.api.UserFunction;
import org.groovecast.liquidsoap.eval.Builtin;
import org.groovecast.liquidsoap.eval.Errors;
import org.groovecast.liquidsoap.eval.Fn;
import org.groovecast.liquidsoap.eval.Parameter;
import org.groovecast.liquidsoap.eval.Tuple;

/**
 * {@code live.on_connect(synchronous=..., fun (headers) -> ...)} and {@code
 * live.on_disconnect(synchronous=..., fun () -> ...)} on an input that takes such callbacks (the
 * harbor's {@code onConnect(Consumer)} and {@code onDisconnect(Runnable)}), as Liquidsoap 2.4's
 * callback methods: the handler gets the client's headers. With {@code synchronous=false} it runs
 * on a virtual thread of its own, so that it may wait (an HTTP call to an API) without holding the
 * input's connection.
 */
final class ConnectionCallbacks {
    private ConnectionCallbacks() {}

    /** The method {@code name} of {@code input}, or null when it has no such callback. */
    static Object method(Object input, String name, Function<Fn, UserFunction> functions) {
        boolean connect = name.equals("on_connect");
        if (!connect && !name.equals("on_disconnect")) return null;
        Method register = find(input, connect ? "onConnect" : "onDisconnect", connect);
        if (register == null) return null;
        return Builtin.of(
                "source." + name,
                List.of(new Parameter("synchronous", false, null), Parameter.positional()),
                a -> {
                    boolean synchronous = a.bool(0);
                    UserFunction f = functions.apply(a.fn(1));
                    Object callback =
                            connect
                                    ? (Consumer<Map<String, Object>>)
                                            info -> run(synchronous, () -> f.call(headers(info)))
                                    : (Runnable) () -> run(synchronous, f::call);
                    try {
                        register.invoke(input, callback);
                    } catch (IllegalAccessException | InvocationTargetException e) {
                        throw Errors.invalid(name + ": " + e.getCause());
                    }
                    return Tuple.UNIT;
                });
    }

    private static Method find(Object input, String method, boolean connect) {
        try {
            return input.getClass().getMethod(method, connect ? Consumer.class : Runnable.class);
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    /** The client's request headers, names in lower case as Liquidsoap's harbor gives them. */
    private static Object headers(Map<String, Object> info) {
        if (!(info.get("headers") instanceof Map<?, ?> h)) return List.of();
        Map<String, Object> lower = new LinkedHashMap<>();
        h.forEach((k, v) -> lower.put(String.valueOf(k).toLowerCase(Locale.ROOT), v));
        return EngineValues.pairs(lower);
    }

    private static void run(boolean synchronous, Runnable r) {
        if (synchronous) r.run();
        else Thread.startVirtualThread(r);
    }
}
