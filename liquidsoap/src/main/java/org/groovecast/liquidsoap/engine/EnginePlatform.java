package org.groovecast.liquidsoap.engine;

import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.groovecast.api.ScriptException;
import org.groovecast.host.script.ScriptRuntime;
import org.groovecast.liquidsoap.eval.Errors;
import org.groovecast.liquidsoap.eval.Fn;
import org.groovecast.liquidsoap.eval.Show;
import org.groovecast.liquidsoap.eval.Values;
import org.groovecast.liquidsoap.prelude.Platform;
import org.groovecast.liquidsoap.syntax.Span;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The prelude's effects on a station: {@code thread.run} is the engine's, {@code log} the script's
 * log, {@code server.register} a control command, settings the station's where it has them.
 */
final class EnginePlatform implements Platform {
    private static final Logger log = LoggerFactory.getLogger(EnginePlatform.class);

    private final ScriptRuntime runtime;
    private final EngineValues values;
    private final OperatorBridge.Caller caller;
    private final Map<String, String> env = new ConcurrentHashMap<>();
    private final Map<String, Object> later = new ConcurrentHashMap<>();
    private final long started = System.nanoTime();

    EnginePlatform(ScriptRuntime runtime, EngineValues values, OperatorBridge.Caller caller) {
        this.runtime = runtime;
        this.values = values;
        this.caller = caller;
    }

    private Object call(String operator, Span at, Object... args) {
        return caller.call(operator, args, at);
    }

    @Override
    public void print(String text) {
        System.out.print(text);
        System.out.flush();
    }

    @Override
    public void log(String label, int level, String message) {
        String op =
                switch (level) {
                    case 1 -> "log.error";
                    case 2 -> "log.warning";
                    case 5 -> "log.debug";
                    default -> "log.info";
                };
        String text = label.equals("lang") ? message : "[" + label + "] " + message;
        if (runtime.functions().find(op).isPresent()) call(op, null, Map.of(), text);
        else log.info(text);
    }

    /**
     * {@code thread.run}: the engine's, always on its blocking pool ({@code fast=false}), whatever
     * the script says. Liquidsoap runs even its fast tasks on threads of their own, apart from its
     * clocks, so a script written for it may pause, wait for a process or an HTTP answer in one;
     * Groovecast's clocks are tasks of the scheduler that runs fast functions, which such a
     * function would hold.
     */
    @Override
    public void runLater(double delay, double every, boolean fast, Fn f) {
        call(
                "thread.run",
                null,
                Map.of("delay", delay, "every", every, "fast", false),
                values.closure(f));
    }

    /**
     * {@code shutdown()} and {@code exit(n)}: the station's own {@code shutdown} operator where its
     * table has one (an embedder's, such as the conformance bench's, which ends its process with
     * the code), else logged and ignored: a station stops with SIGTERM or its control.
     */
    @Override
    public void shutdown(int code) {
        if (runtime.functions().find("shutdown").isPresent()) {
            call("shutdown", null, Map.of(), (long) code);
            return;
        }
        log.info(
                "{}: shutdown() called; a station stops with SIGTERM or its control, not from its script: ignored",
                runtime.fileName());
    }

    private final java.util.List<Runnable> atStop =
            new java.util.concurrent.CopyOnWriteArrayList<>();

    @Override
    public void atStop(Runnable task) {
        atStop.add(task);
    }

    /** Runs what the script asked to run when it stops, each once; a failure is logged. */
    void stopped() {
        for (Runnable r : atStop) {
            try {
                r.run();
            } catch (RuntimeException e) {
                log.warn("{}: at stop: {}", runtime.fileName(), e.getMessage());
            }
        }
        atStop.clear();
    }

    /** Whether the script set {@code settings.init.force_start := true}. */
    boolean forceStart() {
        return Boolean.TRUE.equals(later.get("init.force_start"));
    }

    @Override
    public ZonedDateTime now() {
        return ZonedDateTime.now();
    }

    @Override
    public double uptime() {
        return (System.nanoTime() - started) / 1e9;
    }

    @Override
    public String getenv(String name) {
        String v = env.get(name);
        if (v != null) return v;
        if (runtime.functions().find("env").isEmpty()) return System.getenv(name);
        Object r = Values.base(call("env", null, Map.of(), name, "\u0000"));
        return "\u0000".equals(r) ? null : Show.text(r);
    }

    @Override
    public void setenv(String name, String value) {
        env.put(name, value);
        if (name.equals("TZ")) set("time.zone", value);
    }

    @Override
    public boolean setting(String path, Object value) {
        Object v = Values.base(value);
        switch (path) {
            case "server.telnet",
                    "server.telnet.port",
                    "server.telnet.bind_addr",
                    "init.force_start" -> {
                later.put(path, v);
                return true;
            }
            case "autocue.preferred" -> {
                return true; // read from the settings when a request resolves (AutocueFunctions)
            }
            case "harbor.bind_addrs" -> {
                if (v instanceof List<?> l && !l.isEmpty())
                    return set("harbor.bind", Show.text(l.getFirst()));
                return false;
            }
            default -> {}
        }
        String key = SettingNames.engineKey(path);
        return key != null && set(key, v);
    }

    private boolean set(String key, Object value) {
        if (runtime.settings().type(key).isEmpty()) return false;
        try {
            runtime.settings().set(key, value);
            return true;
        } catch (ScriptException e) {
            throw Errors.invalid("settings." + key + ": " + e.getMessage());
        }
    }

    /**
     * What the settings asked for that the engine makes as an operator: {@code
     * settings.server.telnet := true}.
     */
    void finish() {
        if (Boolean.TRUE.equals(later.get("server.telnet"))
                && runtime.functions().find("server.telnet").isPresent()) {
            Map<String, Object> named = new java.util.LinkedHashMap<>();
            if (later.get("server.telnet.port") instanceof Number n)
                named.put("port", n.intValue());
            if (later.get("server.telnet.bind_addr") instanceof String b) named.put("bind", b);
            call("server.telnet", null, named);
        }
    }

    @Override
    public void registerCommand(String name, String usage, String description, Fn handler) {
        call(
                "server.register",
                null,
                Map.of("usage", usage, "description", description),
                name,
                values.closure(handler, Show::text));
    }

    @Override
    public String scriptPath() {
        return runtime.fileName();
    }

    @Override
    public String executeCommand(String command) {
        return Show.text(call("server.execute", null, Map.of(), command));
    }
}
