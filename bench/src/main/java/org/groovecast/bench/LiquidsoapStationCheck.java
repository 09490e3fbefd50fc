package org.groovecast.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.groovecast.host.Station;
import org.groovecast.host.plugin.OperatorPlugins;
import org.groovecast.host.script.ScriptError;
import org.groovecast.host.script.ScriptErrors;
import org.groovecast.host.script.ScriptFunctions;
import org.groovecast.host.script.ScriptSettings;
import org.groovecast.liquidsoap.engine.LiquidsoapFrontEnd;
import org.groovecast.liquidsoap.syntax.SyntaxError;

/**
 * The check a {@code .liq} station gets before it runs, as {@code groovecast check} makes it: the
 * Liquidsoap front end's load (parse, names, types) against the function table of a station with
 * the shipped plugins (bench/target/plugins), Groovecast's own library and operators (not the
 * bench's table of Liquidsoap's builtins). As a program, it checks Liquidsoap's {@code
 * tests/language/*.liq} that way (each after {@code tests/test.liq}, as Liquidsoap's test runner
 * has them) and any other script named, and sorts each outcome: accepted, refused for a name
 * Groovecast lacks, refused for a type error (each one listed: the ones to look at, since
 * Liquidsoap accepts all these scripts), or another refusal; with the time each check took.
 */
public final class LiquidsoapStationCheck implements AutoCloseable {
    private static final String USAGE =
            """
            usage: LiquidsoapStationCheck LIQUIDSOAP-CHECKOUT [SCRIPT.liq ...] [--runs=5] [--verbose]
              SCRIPT.liq  other stations checked as they are (AzuraCast's azuracast.liq...)
              --runs      checks of each named script timed after the first (the best is printed)
              --verbose   one line per file, not only the refusals""";

    private static final ScriptSettings NO_SETTINGS = ScriptSettings.none();

    /** How a check ended. */
    enum Kind {
        ACCEPTED,
        MISSING_NAME,
        TYPE_ERROR,
        OTHER
    }

    /** One check: how it ended, the refusal (null when accepted), its time in milliseconds. */
    record Outcome(Kind kind, String refusal, double millis) {}

    private final OperatorPlugins plugins;
    private final ScriptFunctions functions;

    LiquidsoapStationCheck() {
        this.plugins = BenchSupport.loadPlugins(BenchSupport.pluginsDir(null));
        this.functions = Station.functionTable(plugins.functions());
    }

    /** Null when the front end accepts {@code text} (named {@code name}), else its message. */
    String refusal(String name, String text) {
        try {
            new LiquidsoapFrontEnd().load(name, text, functions, NO_SETTINGS);
            return null;
        } catch (ScriptError | ScriptErrors | SyntaxError e) {
            return e.getMessage();
        }
    }

    /** The front end's load of {@code file} (and what it includes), sorted and timed. */
    Outcome check(Path file) {
        long start = System.nanoTime();
        String refusal;
        try {
            new LiquidsoapFrontEnd().load(file, functions, NO_SETTINGS, p -> {});
            refusal = null;
        } catch (ScriptError | ScriptErrors | SyntaxError e) {
            refusal = e.getMessage();
        }
        double millis = (System.nanoTime() - start) / 1e6;
        return new Outcome(kind(refusal), refusal, millis);
    }

    /**
     * What a refusal is, from its words: the names check says "unknown variable/function" (and the
     * type checker "Undefined variable" for a name used where it is not yet defined); the type
     * checker's other messages are Liquidsoap's.
     */
    static Kind kind(String refusal) {
        if (refusal == null) return Kind.ACCEPTED;
        if (refusal.contains("unknown variable")
                || refusal.contains("unknown function")
                || refusal.contains("Undefined variable")) {
            return Kind.MISSING_NAME;
        }
        if (refusal.contains("this value has")
                || refusal.contains("should be a subtype")
                || refusal.contains("function application")
                || refusal.contains("Cannot apply that parameter")
                || refusal.contains("no method")
                || refusal.contains("no argument labeled")
                || refusal.contains("Invalid value")
                || refusal.contains("Its type is")) {
            return Kind.TYPE_ERROR;
        }
        return Kind.OTHER;
    }

    @Override
    public void close() {
        plugins.close();
    }

    public static void main(String[] args) throws IOException {
        Path checkout = null;
        List<Path> scripts = new ArrayList<>();
        int runs = 5;
        boolean verbose = false;
        for (String arg : args) {
            if (arg.startsWith("--runs=")) {
                runs = Integer.parseInt(arg.substring("--runs=".length()));
            } else if (arg.equals("--verbose")) {
                verbose = true;
            } else if (arg.startsWith("-")) {
                System.err.println(USAGE);
                System.exit(2);
            } else if (checkout == null) {
                checkout = Path.of(arg).toAbsolutePath();
            } else {
                scripts.add(Path.of(arg).toAbsolutePath());
            }
        }
        if (checkout == null || !Files.isRegularFile(checkout.resolve("tests/test.liq"))) {
            System.err.println(USAGE);
            System.err.println("(the checkout must hold tests/test.liq)");
            System.exit(2);
        }
        int typeErrors;
        try (LiquidsoapStationCheck station = new LiquidsoapStationCheck()) {
            typeErrors = station.languageTests(checkout, verbose);
            for (Path s : scripts) typeErrors += station.named(s, runs);
        }
        System.exit(typeErrors == 0 ? 0 : 1);
    }

    /** tests/language/*.liq, each after tests/test.liq; the number refused for a type error. */
    private int languageTests(Path checkout, boolean verbose) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(checkout.resolve("tests/language"))) {
            files = s.filter(p -> p.toString().endsWith(".liq")).sorted().toList();
        }
        Path dir = Files.createTempDirectory("liq-station-check");
        int[] counts = new int[Kind.values().length];
        List<String> lines = new ArrayList<>();
        double total = 0;
        double slowest = 0;
        String slowestName = "";
        check(checkout.resolve("tests/test.liq")); // the JVM and the library warmed once
        for (Path f : files) {
            // a station of its own that includes tests/test.liq, then the test: spans stay the
            // files'
            Path station = dir.resolve(f.getFileName());
            Files.writeString(
                    station,
                    "%include \""
                            + checkout.resolve("tests/test.liq")
                            + "\"\n%include \""
                            + f
                            + "\"\n");
            Outcome o = check(station);
            counts[o.kind().ordinal()]++;
            total += o.millis();
            if (o.millis() > slowest) {
                slowest = o.millis();
                slowestName = f.getFileName().toString();
            }
            if (o.kind() != Kind.ACCEPTED || verbose) {
                lines.add(
                        String.format(
                                Locale.ROOT,
                                "  %-12s %-22s %7.1f ms  %s",
                                o.kind().name().toLowerCase(Locale.ROOT),
                                f.getFileName(),
                                o.millis(),
                                o.refusal() == null ? "" : firstLine(o.refusal())));
            }
            Files.delete(station);
        }
        Files.delete(dir);
        System.out.printf(
                Locale.ROOT,
                "tests/language/*.liq checked as stations (after tests/test.liq), %d files:%n"
                        + "  accepted %d, refused for a name Groovecast lacks %d, refused for a"
                        + " type error %d, other refusals %d%n"
                        + "  check time: %.0f ms in all, %.1f ms the slowest (%s)%n",
                files.size(),
                counts[Kind.ACCEPTED.ordinal()],
                counts[Kind.MISSING_NAME.ordinal()],
                counts[Kind.TYPE_ERROR.ordinal()],
                counts[Kind.OTHER.ordinal()],
                total,
                slowest,
                slowestName);
        lines.forEach(System.out::println);
        return counts[Kind.TYPE_ERROR.ordinal()];
    }

    /** A script checked as it is, the first time and the best of {@code runs} more. */
    private int named(Path script, int runs) throws IOException {
        Outcome first = check(script);
        double best = first.millis();
        for (int i = 0; i < runs; i++) best = Math.min(best, check(script).millis());
        long lines;
        try (Stream<String> s = Files.lines(script)) {
            lines = s.count();
        }
        System.out.printf(
                Locale.ROOT,
                "%n%s (%d lines): %s%n  check time: %.1f ms the first, %.1f ms the best of %d more%n",
                script,
                lines,
                first.refusal() == null
                        ? "accepted"
                        : first.kind().name().toLowerCase(Locale.ROOT)
                                + ": "
                                + firstLine(first.refusal()),
                first.millis(),
                best,
                runs);
        return first.kind() == Kind.TYPE_ERROR ? 1 : 0;
    }

    private static String firstLine(String s) {
        String line = s.lines().findFirst().orElse("");
        return line.length() > 220 ? line.substring(0, 220) + "..." : line;
    }
}
