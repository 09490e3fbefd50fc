package org.groovecast.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.groovecast.liquidsoap.parser.ParsedScript;
import org.groovecast.liquidsoap.parser.Scripts;
import org.groovecast.liquidsoap.syntax.SyntaxError;

/**
 * How much of Liquidsoap 2.4.5's own scripts the Liquidsoap front end handles, measured on a
 * checkout of Liquidsoap (read, never copied): (1) every {@code src/libs/**}{@code /*.liq} parsed,
 * each file on its own and {@code stdlib.liq} with the files it includes, as Liquidsoap loads its
 * library, then type-checked; (2) {@code tests/language/*.liq} and {@code tests/test.liq} parsed,
 * then run; (3) the cases of {@code tests/language/type_errors.liq} accepted or rejected as
 * Liquidsoap does (the type-checking parts are {@link LiquidsoapTypeConformance}). Steps not built
 * yet print "not yet". Also the time parsing takes: the first (cold) parse of the whole library and
 * the best of {@code --runs} warm ones, in CPU time.
 */
public final class LiquidsoapConformance {
    private static final String USAGE =
            """
            usage: LiquidsoapConformance LIQUIDSOAP-CHECKOUT [--runs=20] [--timeout=20] [--verbose]
                       [--steps=123] [--only=TEST,...] [--set=KEY=VALUE]...
              --runs     warm parses of the whole library timed after the first (the best is printed)
              --timeout  seconds each tests/language script may run before it counts as failed
              --steps    which steps to run (default all: 3 runs (3) and (3'))
              --only     step (2) runs only these tests (names in tests/language, .liq optional)
              --set      a station setting for every test of step (2), as groovecast run --set
              --verbose  one line per file, not only the failures""";

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private record Result(Path file, int lines, String error) {}

    public static void main(String[] args) throws IOException {
        Path checkout = null;
        int runs = 20;
        double timeout = 20;
        boolean verbose = false;
        String steps = "123";
        List<String> only = new ArrayList<>();
        List<String> settings = new ArrayList<>();
        for (String arg : args) {
            if (arg.startsWith("--runs=")) {
                runs = Integer.parseInt(arg.substring("--runs=".length()));
            } else if (arg.startsWith("--timeout=")) {
                timeout = Double.parseDouble(arg.substring("--timeout=".length()));
            } else if (arg.startsWith("--steps=")) {
                steps = arg.substring("--steps=".length());
            } else if (arg.startsWith("--only=")) {
                for (String t : arg.substring("--only=".length()).split(","))
                    only.add(t.endsWith(".liq") ? t : t + ".liq");
            } else if (arg.startsWith("--set=")) {
                settings.add(arg.substring("--set=".length()));
            } else if (arg.equals("--verbose")) {
                verbose = true;
            } else if (arg.startsWith("-")) {
                System.err.println(USAGE);
                System.exit(2);
            } else {
                checkout = Path.of(arg);
            }
        }
        if (checkout == null || !Files.isDirectory(checkout.resolve("src/libs"))) {
            System.err.println(USAGE);
            System.err.println("(the checkout must hold src/libs)");
            System.exit(2);
        }
        System.out.printf("Liquidsoap checkout: %s (version %s)%n%n", checkout, version(checkout));
        LiquidsoapTypeConformance types = new LiquidsoapTypeConformance(checkout, verbose);
        boolean ok = true;
        if (steps.contains("1")) ok = libraries(checkout, runs, verbose, types);
        if (steps.contains("2")) ok &= languageTests(checkout, verbose, timeout, only, settings);
        if (steps.contains("3")) {
            System.out.println();
            System.out.println(
                    "(3) tests/language/type_errors.liq, accepted or rejected as Liquidsoap does");
            types.typeErrors();
            System.out.println();
            System.out.println(
                    "(3') the same cases through the front end: Groovecast's library and the shipped"
                            + " plugins' operators, as a station's check");
            types.typeErrorsThroughTheFrontEnd();
        }
        System.exit(ok ? 0 : 1);
    }

    private static boolean libraries(
            Path checkout, int runs, boolean verbose, LiquidsoapTypeConformance types)
            throws IOException {
        Path libs = checkout.resolve("src/libs");
        List<Path> files = liq(libs, true);
        System.out.println("(1) src/libs: the standard library");
        // stdlib.liq first, in a JVM that has parsed nothing yet: the cold figure
        Path stdlib = libs.resolve("stdlib.liq");
        String entry = Files.exists(stdlib) ? entryPoint(stdlib) : null;
        List<Result> results = parseEach(checkout, files, verbose);
        report(results);
        if (entry != null) {
            row("stdlib.liq with its includes", entry);
            long best = Long.MAX_VALUE;
            for (int i = 0; i < runs; i++) {
                long start = cpu();
                for (Path f : files) {
                    try {
                        Scripts.parse(f);
                    } catch (SyntaxError e) {
                        // counted above
                    }
                }
                best = Math.min(best, cpu() - start);
            }
            int lines = results.stream().mapToInt(Result::lines).sum();
            row(
                    "parse time, every file on its own",
                    String.format(
                            Locale.ROOT,
                            "%.1f ms CPU warm (best of %d), %,.0f lines/s",
                            best / 1e6,
                            runs,
                            lines / (best / 1e9)));
        }
        types.library();
        return results.stream().allMatch(r -> r.error == null);
    }

    /** The library as Liquidsoap loads it: stdlib.liq and what it includes, parsed cold. */
    private static String entryPoint(Path stdlib) throws IOException {
        long cpu = cpu();
        long process = processCpu();
        long wall = System.nanoTime();
        try {
            ParsedScript script = Scripts.parse(stdlib);
            long cpuNs = cpu() - cpu;
            long processNs = processCpu() - process;
            long wallNs = System.nanoTime() - wall;
            int lines = 0;
            for (Path f : script.files()) lines += lines(f);
            return String.format(
                    Locale.ROOT,
                    "ok, %d files (%,d lines), first parse %.0f ms CPU (%.0f ms with the JIT's"
                            + " threads, %.0f ms wall), %d warnings",
                    script.files().size(),
                    lines,
                    cpuNs / 1e6,
                    processNs / 1e6,
                    wallNs / 1e6,
                    script.warnings().size());
        } catch (SyntaxError e) {
            return "FAILED: " + e.getMessage();
        }
    }

    private static boolean languageTests(
            Path checkout,
            boolean verbose,
            double timeout,
            List<String> only,
            List<String> settings)
            throws IOException {
        System.out.println();
        System.out.println("(2) tests/language/*.liq and tests/test.liq");
        Path dir = checkout.resolve("tests/language");
        List<Path> files = Files.isDirectory(dir) ? liq(dir, false) : new ArrayList<>();
        Path testLiq = checkout.resolve("tests/test.liq");
        if (Files.exists(testLiq)) files.add(testLiq);
        List<Result> results = parseEach(checkout, files, verbose);
        report(results);
        if (Files.exists(testLiq)) {
            System.out.println();
            System.out.println(
                    "(2) tests/language/*.liq run as stations, tests/test.liq first (exit 0 passes, 123 skips)");
            List<String> tests = LiquidsoapTestRuns.runnable(dir);
            if (!only.isEmpty()) tests.retainAll(only);
            new LiquidsoapTestRuns(checkout, timeout, settings).runAll(tests);
        }
        return results.stream().allMatch(r -> r.error == null);
    }

    private static List<Result> parseEach(Path checkout, List<Path> files, boolean verbose)
            throws IOException {
        List<Result> results = new ArrayList<>();
        for (Path file : files) {
            String error = null;
            try {
                Scripts.parse(file);
            } catch (SyntaxError e) {
                error = e.getMessage();
            }
            Result r = new Result(file, lines(file), error);
            results.add(r);
            if (verbose || error != null) {
                System.out.printf(
                        "  %-44s %6d lines  %s%n",
                        checkout.relativize(file),
                        r.lines,
                        error == null ? "ok" : "FAILED: " + error);
            }
        }
        return results;
    }

    private static void report(List<Result> results) {
        int lines = results.stream().mapToInt(Result::lines).sum();
        long ok = results.stream().filter(r -> r.error == null).count();
        row("files", String.format("%d (%,d lines)", results.size(), lines));
        row(
                "parsed",
                String.format(
                        Locale.ROOT,
                        "%d / %d (%.1f %%)",
                        ok,
                        results.size(),
                        results.isEmpty() ? 0 : 100.0 * ok / results.size()));
        row("failed", String.valueOf(results.size() - ok));
    }

    private static void row(String what, String value) {
        System.out.printf("  %-36s %s%n", what, value);
    }

    private static List<Path> liq(Path dir, boolean recursive) throws IOException {
        try (Stream<Path> s = recursive ? Files.walk(dir) : Files.list(dir)) {
            return new ArrayList<>(s.filter(p -> p.toString().endsWith(".liq")).sorted().toList());
        }
    }

    private static int lines(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        int n = 0;
        for (byte b : bytes) if (b == '\n') n++;
        return bytes.length > 0 && bytes[bytes.length - 1] != '\n' ? n + 1 : n;
    }

    private static long cpu() {
        return THREADS.getCurrentThreadCpuTime();
    }

    /** The whole JVM's CPU time: the parse and the compiler threads that compile it. */
    private static long processCpu() {
        return ((com.sun.management.OperatingSystemMXBean)
                        ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static String version(Path checkout) {
        try {
            Matcher m =
                    Pattern.compile("\\(version ([^)]+)\\)")
                            .matcher(Files.readString(checkout.resolve("dune-project")));
            return m.find() ? m.group(1) : "unknown";
        } catch (IOException e) {
            return "unknown";
        }
    }
}
