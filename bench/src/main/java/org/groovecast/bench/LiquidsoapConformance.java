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
              --runs     warm parses of the whole library timed after the first (the best is printed)
              --timeout  seconds each tests/language script may run before it counts as failed
              --verbose  one line per file, not only the failures""";

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private record Result(Path file, int lines, String error) {}

    public static void main(String[] args) throws IOException {
        Path checkout = null;
        int runs = 20;
        double timeout = 20;
        boolean verbose = false;
        for (String arg : args) {
            if (arg.startsWith("--runs=")) {
                runs = Integer.parseInt(arg.substring("--runs=".length()));
            } else if (arg.startsWith("--timeout=")) {
                timeout = Double.parseDouble(arg.substring("--timeout=".length()));
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
        boolean ok = libraries(checkout, runs, verbose, types);
        ok &= languageTests(checkout, verbose, timeout);
        System.out.println();
        System.out.println(
                "(3) tests/language/type_errors.liq, accepted or rejected as Liquidsoap does");
        types.typeErrors();
        System.out.println();
        System.out.println(
                "(3') the same cases through the front end: Groovecast's library and the shipped"
                        + " plugins' operators, as a station's check");
        types.typeErrorsThroughTheFrontEnd();
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

    private static boolean languageTests(Path checkout, boolean verbose, double timeout)
            throws IOException {
        System.out.println();
        System.out.println("(2) tests/language/*.liq and tests/test.liq");
        Path dir = checkout.resolve("tests/language");
        List<Path> files = Files.isDirectory(dir) ? liq(dir, false) : new ArrayList<>();
        Path testLiq = checkout.resolve("tests/test.liq");
        if (Files.exists(testLiq)) files.add(testLiq);
        List<Result> results = parseEach(checkout, files, verbose);
        report(results);
        if (Files.exists(testLiq)) runEach(checkout, testLiq, runnable(dir), timeout);
        return results.stream().allMatch(r -> r.error == null);
    }

    /**
     * The tests Liquidsoap's own build runs ({@code run %{run_test} NAME.liq} in tests/language's
     * dune files), or every file when they are not there.
     */
    private static List<Path> runnable(Path dir) throws IOException {
        java.util.Set<String> names = new java.util.TreeSet<>();
        for (String dune : List.of("dune", "dune.inc")) {
            Path f = dir.resolve(dune);
            if (!Files.exists(f)) continue;
            Matcher m =
                    Pattern.compile("run %\\{run_test\\} ([A-Za-z0-9_.]+\\.liq)")
                            .matcher(Files.readString(f));
            while (m.find()) names.add(m.group(1));
        }
        if (names.isEmpty()) return liq(dir, false);
        List<Path> out = new ArrayList<>();
        for (String n : names) if (Files.exists(dir.resolve(n))) out.add(dir.resolve(n));
        return out;
    }

    /** How one test ended: its exit code (or -1 at the time limit) and the first error line. */
    private record Run(Path file, int code, String error, long millis) {}

    /**
     * Step (2): runs each tests/language/*.liq after tests/test.liq, each in a process of its own
     * in tests/language (the files they read are there), as Liquidsoap's run_test counts: exit 0
     * passes, 123 is a skip, anything else fails. Without the type checker (not run yet).
     */
    private static void runEach(Path checkout, Path testLiq, List<Path> tests, double timeout)
            throws IOException {
        System.out.println();
        System.out.println(
                "(2) tests/language/*.liq run with tests/test.liq first (exit 0 passes, 123 skips)");
        String javaBin = ProcessHandle.current().info().command().orElse("java");
        String classpath = System.getProperty("java.class.path");
        List<Run> runs = new ArrayList<>();
        for (Path test : tests) {
            long t0 = System.nanoTime();
            Path log = Files.createTempFile("liq-test", ".log");
            Process p =
                    new ProcessBuilder(
                                    javaBin,
                                    "--enable-native-access=ALL-UNNAMED",
                                    "-Xss16m",
                                    "-cp",
                                    classpath,
                                    LiquidsoapTestRun.class.getName(),
                                    "--timeout=" + timeout,
                                    testLiq.toAbsolutePath().toString(),
                                    test.toAbsolutePath().toString())
                            .directory(test.getParent().toFile())
                            .redirectErrorStream(true)
                            .redirectOutput(log.toFile())
                            .start();
            int code;
            try {
                code =
                        p.waitFor((long) (timeout + 15), java.util.concurrent.TimeUnit.SECONDS)
                                ? p.exitValue()
                                : -1;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                code = -1;
            }
            if (code == -1) p.destroyForcibly();
            List<String> out = Files.readAllLines(log, java.nio.charset.StandardCharsets.UTF_8);
            Files.deleteIfExists(log);
            String error =
                    out.stream()
                            .filter(l -> l.startsWith("ERROR: "))
                            .map(l -> l.substring(7))
                            .findFirst()
                            .orElse(
                                    out.stream()
                                            .filter(
                                                    l ->
                                                            l.contains("Test failed")
                                                                    || l.contains("rror"))
                                            .findFirst()
                                            .orElse(""));
            runs.add(new Run(test, code, error, (System.nanoTime() - t0) / 1_000_000));
        }
        System.out.printf("  %-22s %-8s %s%n", "test", "result", "first error");
        for (Run r : runs) {
            String result =
                    r.code == 0
                            ? "pass"
                            : r.code == 123 ? "skip" : r.code == -1 ? "timeout" : "FAIL " + r.code;
            String error = r.error.length() > 110 ? r.error.substring(0, 107) + "..." : r.error;
            System.out.printf(
                    "  %-22s %-8s %s%n",
                    r.file.getFileName(),
                    result,
                    r.code == 0 ? "" : error.replace(checkout + "/", ""));
        }
        long passed = runs.stream().filter(r -> r.code == 0).count();
        long skipped = runs.stream().filter(r -> r.code == 123).count();
        row(
                "run (exit 0, tests/test.liq first)",
                String.format(
                        Locale.ROOT,
                        "%d / %d pass (%.1f %%), %d skipped, %d fail, type-checked first (Groovecast's library, no engine)",
                        passed,
                        runs.size(),
                        100.0 * passed / Math.max(1, runs.size()),
                        skipped,
                        runs.size() - passed - skipped));
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
