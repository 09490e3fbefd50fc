package org.groovecast.host;

import static org.groovecast.api.ValueType.ANY;
import static org.groovecast.api.ValueType.BOOLEAN;
import static org.groovecast.api.ValueType.CLOCK;
import static org.groovecast.api.ValueType.FUNCTION;
import static org.groovecast.api.ValueType.INTEGER;
import static org.groovecast.api.ValueType.LIST;
import static org.groovecast.api.ValueType.MAP;
import static org.groovecast.api.ValueType.NONE;
import static org.groovecast.api.ValueType.NUMBER;
import static org.groovecast.api.ValueType.SOURCES;
import static org.groovecast.api.ValueType.STRING;

import java.util.ArrayList;
import java.util.List;
import org.groovecast.api.CallbackScope;
import org.groovecast.api.OperatorSpec;
import org.groovecast.api.ScriptException;
import org.groovecast.api.Source;
import org.groovecast.api.UserFunction;
import org.groovecast.host.clock.Sync;
import org.groovecast.host.script.ClosureFunction;
import org.groovecast.host.status.StatusAuth;

/** The engine's own script functions: env, log, clocks, threads, time, memory, callback scopes. */
final class Builtins {
    private Builtins() {}

    static List<OperatorSpec> specs(Station station) {
        List<OperatorSpec> specs = new ArrayList<>();
        specs.add(
                OperatorSpec.named("env")
                        .doc("An environment variable, or the default when it is unset.")
                        .positional("name", STRING, "variable name")
                        .positional("default", STRING, "", "value when unset")
                        .returns(STRING)
                        .create(
                                a -> {
                                    String v = station.env(a.string("name"));
                                    return v != null ? v : a.string("default");
                                }));
        specs.add(
                OperatorSpec.named("metrics.expose")
                        .doc(
                                "Serves the station's metrics in Prometheus text format on the harbor.")
                        .named("port", INTEGER, 8000, "the harbor port")
                        .range(0, 65535)
                        .named("path", STRING, "/metrics", "the path")
                        .returns(NONE)
                        .create(
                                a -> {
                                    String path = a.string("path");
                                    station.exposeMetrics(
                                            a.integer("port"),
                                            path.startsWith("/") ? path : "/" + path);
                                    return null;
                                }));
        specs.add(
                OperatorSpec.named("status.page")
                        .doc(
                                "Serves the station's status page (outputs, listeners, now playing, clocks' duty and lag, "
                                        + "live inputs, RTMP) and /status-json.xsl, /api/nowplaying, /api/clocks, /healthz, /readyz on the harbor.")
                        .named("port", INTEGER, 8000, "the harbor port")
                        .range(0, 65535)
                        .named("path", STRING, "/", "where the page is")
                        .named(
                                "auth",
                                MAP,
                                null,
                                "[user: 'admin', password: '...']: who may press "
                                        + "the page's buttons (skip, push a request, kick the DJ); without it the page is read-only")
                        .returns(NONE)
                        .create(
                                a -> {
                                    String path = a.string("path");
                                    station.exposeStatus(
                                            a.integer("port"),
                                            path.startsWith("/") ? path : "/" + path,
                                            StatusAuth.of(a.map("auth")));
                                    return null;
                                }));
        for (String level : List.of("debug", "info", "warning", "error")) {
            specs.add(
                    OperatorSpec.named("log." + level)
                            .doc("Logs a line at " + level + " level under the script's name.")
                            .positional("message", ANY, "what to log")
                            .returns(NONE)
                            .create(
                                    a -> {
                                        station.scriptLog().log(level, a.value("message"));
                                        return null;
                                    }));
        }
        specs.add(
                OperatorSpec.named("clock.assignNew")
                        .doc(
                                "Puts sources (and everything connected to them) on one clock of their own.")
                        .requiredNamed("id", STRING, "the clock's name in logs and metrics")
                        .named(
                                "sync",
                                STRING,
                                null,
                                "'auto' or 'none'; settings.clock.sync by default")
                        .positional("sources", SOURCES, "the sources to group")
                        .returns(CLOCK)
                        .create(
                                a -> {
                                    String sync = a.string("sync");
                                    ClockHandle handle = new ClockHandle(a.string("id"));
                                    station.graph()
                                            .requestClock(
                                                    new StationGraph.ClockRequest(
                                                            a.string("id"),
                                                            sync == null ? null : Sync.parse(sync),
                                                            a.sources("sources"),
                                                            station.scriptLine(),
                                                            handle));
                                    return handle;
                                }));
        specs.add(
                OperatorSpec.named("clock.list")
                        .doc("The running clocks, each with id, duty, lag, ticks and time.")
                        .returns(LIST)
                        .create(a -> station.clocks()));
        specs.add(
                OperatorSpec.named("thread.run")
                        .doc(
                                "Runs a function later (delay:), repeatedly (every:), on the scheduler or, with fast: false, the blocking pool.")
                        .named("delay", NUMBER, 0.0, "seconds before the first run")
                        .named("every", NUMBER, 0.0, "seconds between runs; 0 runs once")
                        .named(
                                "fast",
                                BOOLEAN,
                                true,
                                "false when the function may block (I/O, sleeps)")
                        .positional("function", FUNCTION, "what to run")
                        .calls()
                        .returns(ANY)
                        .create(
                                a -> {
                                    double delay = a.number("delay");
                                    double every = a.number("every");
                                    if (delay < 0 || every < 0)
                                        throw new ScriptException(
                                                "thread.run(): delay and every must be >= 0");
                                    return station.runLater(
                                            delay, every, a.bool("fast"), a.function("function"));
                                }));
        specs.add(
                OperatorSpec.named("time.up")
                        .doc("Seconds since the station was loaded.")
                        .returns(NUMBER)
                        .create(a -> station.uptime()));
        specs.add(
                OperatorSpec.named("runtime.memory")
                        .doc(
                                "The process footprint in bytes: heapUsed, heapCommitted, private, native, directBuffers, and pretty.")
                        .returns(MAP)
                        .create(a -> RuntimeMemory.read()));
        specs.add(
                OperatorSpec.named("runtime.scheduler")
                        .doc(
                                "The scheduler's load since start: busy (share of its threads' time spent running), threads, "
                                        + "blockingRunning, blockingQueued. Overload shows here and as clock lag, not as clock duty.")
                        .returns(MAP)
                        .create(a -> station.schedulerLoad()));
        specs.add(protocolAdd(station));
        specs.add(DecoderMetadata.spec(station));
        specs.add(
                OperatorSpec.named("protocol.count")
                        .doc(
                                "How many request protocols the station knows: the built-in ones (file, http...) and those protocol.add declared.")
                        .returns(INTEGER)
                        .create(a -> station.protocols().count()));
        specs.add(
                OperatorSpec.named("source.collectCallbackReleases")
                        .doc(
                                "Runs a function; returns its value and one release() undoing what it registered on the sources.")
                        .positional(
                                "sources", SOURCES, "the sources whose registrations to collect")
                        .positional("function", FUNCTION, "the code to run")
                        .calls()
                        .returns(ANY)
                        .create(
                                a -> {
                                    List<Source> sources = a.sources("sources");
                                    UserFunction f = a.function("function");
                                    return CallbackScope.collect(sources, f::call);
                                }));
        return specs;
    }

    /**
     * {@code protocol.add(name, temporary: false) { arg -> uri }}, or {@code { arg, timeout ->
     * [uris] }}.
     */
    private static OperatorSpec protocolAdd(Station station) {
        return OperatorSpec.named("protocol.add")
                .doc(
                        "Declares a request protocol: name:arg resolves to what the function answers (a uri, a list of "
                                + "alternatives, or null), on a virtual thread within settings.request.timeout.")
                .named(
                        "temporary",
                        BOOLEAN,
                        false,
                        "the files its answers lead to are deleted once played")
                .positional("name", STRING, "the protocol, as in name:arg")
                .positional(
                        "resolver",
                        FUNCTION,
                        "{ arg -> uri } or { arg, timeout -> [uris] } (timeout: seconds left)")
                .returns(NONE)
                .create(
                        a -> {
                            UserFunction f = a.function("resolver");
                            int params = ClosureFunction.parameters(f, 1);
                            if (params < 1 || params > 2) {
                                throw new ScriptException(
                                        "protocol.add(): the resolver takes (arg) or (arg, timeout), not "
                                                + params
                                                + " arguments");
                            }
                            station.protocols()
                                    .add(a.string("name"), f, params == 2, a.bool("temporary"));
                            return null;
                        });
    }
}
