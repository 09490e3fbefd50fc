package org.groovecast.liquidsoap.prelude;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import org.groovecast.liquidsoap.eval.Errors;
import org.groovecast.liquidsoap.eval.Evaluator;
import org.groovecast.liquidsoap.eval.Rec;
import org.groovecast.liquidsoap.eval.Show;
import org.groovecast.liquidsoap.eval.Tuple;

/**
 * What a script asks of the process: the environment, the log, {@code thread.run}, the control
 * commands, and the parts of {@code runtime} and {@code liquidsoap} that mean something here.
 */
final class SystemFunctions {
    /** OCaml's collector settings, as Liquidsoap's runtime.gc.get answers them (its defaults). */
    private static final Map<String, Long> GC_DEFAULTS =
            new java.util.TreeMap<>(
                    Map.ofEntries(
                            Map.entry("allocation_policy", 2L),
                            Map.entry("custom_major_ratio", 44L),
                            Map.entry("custom_minor_max_size", 8192L),
                            Map.entry("custom_minor_ratio", 100L),
                            Map.entry("major_heap_increment", 15L),
                            Map.entry("max_overhead", 500L),
                            Map.entry("minor_heap_size", 262144L),
                            Map.entry("space_overhead", 120L),
                            Map.entry("stack_limit", 134217728L),
                            Map.entry("verbose", 0L),
                            Map.entry("window_size", 1L)));

    private static final String GC =
            "{"
                    + String.join(
                            ", ", GC_DEFAULTS.keySet().stream().map(k -> k + " : int").toList())
                    + "}";

    private SystemFunctions() {}

    /**
     * @param logLevel {@code settings.log.level} now: a script's {@code log} line above it is
     *     dropped, as Liquidsoap drops it (the engine's own lines are not the script's to silence)
     */
    static void register(Library lib, Platform platform, LongSupplier logLevel) {
        lib.function(
                "environment",
                "() -> [string * string]",
                "The environment variables.",
                a -> {
                    List<Object> out = new ArrayList<>();
                    System.getenv().forEach((k, v) -> out.add(Tuple.of(k, v)));
                    return ListFunctions.of(out);
                });
        lib.function(
                "environment.get",
                "(?default : string, string) -> string",
                "An environment variable, or the default when it is unset.",
                Map.of("default", ""),
                a -> {
                    String v = platform.getenv(a.string(1));
                    return v == null ? a.string(0) : v;
                });
        lib.function(
                "getenv",
                "(string) -> string",
                "An environment variable, empty when it is unset.",
                a -> {
                    String v = platform.getenv(a.string(0));
                    return v == null ? "" : v;
                });
        lib.function(
                "environment.set",
                "(string, string) -> unit",
                "Sets an environment variable for the script.",
                a -> {
                    platform.setenv(a.string(0), a.string(1));
                    return Tuple.UNIT;
                });
        lib.function(
                "setenv",
                "(string, string) -> unit",
                "Sets an environment variable for the script.",
                a -> {
                    platform.setenv(a.string(0), a.string(1));
                    return Tuple.UNIT;
                });
        lib.function(
                "log",
                "(?label : string, ?level : int, string) -> unit",
                "Logs a line: level 1 critical, 2 severe, 3 important, 4 info, 5 debug.",
                Map.of("label", "lang", "level", 3L),
                a -> {
                    if (a.integer(1) <= logLevel.getAsLong())
                        platform.log(a.string(0), (int) a.integer(1), a.string(2));
                    return Tuple.UNIT;
                });
        String[] levels = {"critical", "severe", "important", "info", "debug"};
        for (int i = 0; i < levels.length; i++) {
            int level = i + 1;
            lib.function(
                    "log." + levels[i],
                    "(?label : string, string) -> unit",
                    "Logs a line at level " + level + ".",
                    Map.of("label", "lang"),
                    a -> {
                        if (level <= logLevel.getAsLong())
                            platform.log(a.string(0), level, Show.text(a.get(1)));
                        return Tuple.UNIT;
                    });
        }
        lib.function(
                "log.warning",
                "(?label : string, string) -> unit",
                "Logs a line at level 2.",
                Map.of("label", "lang"),
                a -> {
                    if (2 <= logLevel.getAsLong())
                        platform.log(a.string(0), 2, Show.text(a.get(1)));
                    return Tuple.UNIT;
                });
        lib.function(
                "server.register",
                "(?namespace : string?, ?description : string, ?usage : string?, string, (string)"
                        + " -> string) -> unit",
                "A control command of the script's own: its handler gets the argument, answers the reply.",
                Map.of("description", ""),
                a -> {
                    String namespace = a.isNull(0) ? "" : a.string(0);
                    String name = namespace.isEmpty() ? a.string(3) : namespace + "." + a.string(3);
                    platform.registerCommand(
                            name, a.isNull(2) ? "" : a.string(2), a.string(1), a.fn(4));
                    return Tuple.UNIT;
                });
        lib.function(
                "server.execute",
                "(string, ?string) -> [string]",
                "Runs a control command; answers its output's lines.",
                Map.of("", ""),
                a -> {
                    String command =
                            a.string(1).isEmpty() ? a.string(0) : a.string(0) + " " + a.string(1);
                    String out = platform.executeCommand(command);
                    List<Object> lines = new ArrayList<>();
                    for (String l : out.split("\n", -1)) lines.add(l);
                    if (!lines.isEmpty() && "".equals(lines.getLast())) lines.removeLast();
                    return ListFunctions.of(lines);
                });
        lib.value(
                "liquidsoap.version",
                "string",
                Evaluator.VERSION,
                "The Liquidsoap language version this is.");
        lib.function(
                "liquidsoap.version.at_least",
                "(string) -> bool",
                "Whether the language version is at least this one.",
                a -> compareVersions(Evaluator.VERSION, a.string(0)) >= 0);
        lib.value(
                "liquidsoap.script.path", "string", platform.scriptPath(), "The script being run.");
        lib.function(
                "runtime.memory",
                RuntimeMemory.type(),
                "The process's memory and the machine's, in bytes (Linux's /proc).",
                a -> RuntimeMemory.read());
        lib.function(
                "runtime.gc.get",
                "() -> " + GC,
                "Liquidsoap's garbage collector settings (Groovecast runs on the JVM's: these mean nothing here).",
                a -> {
                    Map<String, Object> f = new LinkedHashMap<>();
                    GC_DEFAULTS.forEach((k, v) -> f.put(k, v));
                    return Rec.record(f);
                });
        lib.function(
                "runtime.gc.set",
                "(" + GC + ") -> unit",
                "Accepted and ignored: the JVM's collector is Groovecast's.",
                a -> Tuple.UNIT);
        lib.function(
                "runtime.gc.full_major",
                "() -> unit",
                "Asks the JVM to collect.",
                a -> {
                    System.gc();
                    return Tuple.UNIT;
                });
        lib.function(
                "sleep",
                "(float) -> unit",
                "Waits (in a thread.run(fast=false) function, never on a clock).",
                a -> {
                    try {
                        Thread.sleep((long) (a.number(0) * 1000));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw Errors.of("eval", "sleep interrupted");
                    }
                    return Tuple.UNIT;
                });
    }

    static int compareVersions(String a, String b) {
        String[] x = a.split("[.+~-]");
        String[] y = b.split("[.+~-]");
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            int p = i < x.length ? num(x[i]) : 0;
            int q = i < y.length ? num(y[i]) : 0;
            if (p != q) return Integer.compare(p, q);
        }
        return 0;
    }

    private static int num(String s) {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
