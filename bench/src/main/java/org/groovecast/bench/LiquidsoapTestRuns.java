package org.groovecast.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Step (2) of the conformance bench: each test Liquidsoap's build runs in {@code tests/language}
 * run as a Groovecast station ({@link LiquidsoapTestRun}), one process per test, in a scratch copy
 * of {@code tests/language} and {@code tests/test.liq} (the tests write files beside themselves;
 * the checkout stays as it is), counted as Liquidsoap's {@code run_test} counts: exit 0 passes, 123
 * skips, anything else fails.
 */
final class LiquidsoapTestRuns {
    private final Path checkout;
    private final double timeout;
    private final List<String> settings;

    /** How one test ended: its exit code (-1 past the time limit) and the first error line. */
    private record Run(String name, int code, String error, long millis) {}

    LiquidsoapTestRuns(Path checkout, double timeout, List<String> settings) {
        this.checkout = checkout;
        this.timeout = timeout;
        this.settings = settings;
    }

    /**
     * The tests Liquidsoap's own build runs ({@code run %{run_test} NAME.liq} in tests/language's
     * dune files), or every file when they are not there.
     */
    static List<String> runnable(Path dir) throws IOException {
        Set<String> names = new TreeSet<>();
        for (String dune : List.of("dune", "dune.inc")) {
            Path f = dir.resolve(dune);
            if (!Files.exists(f)) continue;
            Matcher m =
                    Pattern.compile("run %\\{run_test\\} ([A-Za-z0-9_.]+\\.liq)")
                            .matcher(Files.readString(f));
            while (m.find()) names.add(m.group(1));
        }
        if (names.isEmpty()) {
            try (Stream<Path> s = Files.list(dir)) {
                s.map(p -> p.getFileName().toString())
                        .filter(n -> n.endsWith(".liq"))
                        .forEach(names::add);
            }
        }
        names.removeIf(n -> !Files.exists(dir.resolve(n)));
        return new ArrayList<>(names);
    }

    /** Runs {@code tests} (file names in tests/language) and prints the table and the total. */
    void runAll(List<String> tests) throws IOException {
        List<Run> runs = new ArrayList<>();
        for (String test : tests) runs.add(run(test));
        System.out.printf("  %-22s %-8s %7s  %s%n", "test", "result", "seconds", "first error");
        for (Run r : runs) {
            String result =
                    r.code == 0
                            ? "pass"
                            : r.code == 123 ? "skip" : r.code == -1 ? "timeout" : "FAIL " + r.code;
            String error = r.error.length() > 110 ? r.error.substring(0, 107) + "..." : r.error;
            System.out.printf(
                    Locale.ROOT,
                    "  %-22s %-8s %7.1f  %s%n",
                    r.name,
                    result,
                    r.millis / 1000.0,
                    r.code == 0 ? "" : error);
        }
        long passed = runs.stream().filter(r -> r.code == 0).count();
        long skipped = runs.stream().filter(r -> r.code == 123).count();
        System.out.printf(
                Locale.ROOT,
                "  %-36s %d / %d pass (%.1f %%), %d skipped, %d fail, %.0f s in all%n",
                "run (exit 0, tests/test.liq first)",
                passed,
                runs.size(),
                100.0 * passed / Math.max(1, runs.size()),
                skipped,
                runs.size() - passed - skipped,
                runs.stream().mapToLong(Run::millis).sum() / 1000.0);
    }

    private Run run(String test) throws IOException {
        long t0 = System.nanoTime();
        Path scratch = Files.createTempDirectory("liq-conformance");
        try {
            Path dir = scratch.resolve("language");
            copy(checkout.resolve("tests/language"), dir);
            Files.copy(checkout.resolve("tests/test.liq"), scratch.resolve("test.liq"));
            if (test.equals("test_cover.liq")) {
                String why = coverFiles(dir);
                if (why != null) return new Run(test, 1, why, (System.nanoTime() - t0) / 1000000);
            }
            Outcome o = runProcess(dir, List.of("../test.liq", test));
            return new Run(test, o.code, o.error, (System.nanoTime() - t0) / 1_000_000);
        } finally {
            delete(scratch);
        }
    }

    private record Outcome(int code, String error) {}

    /** One {@link LiquidsoapTestRun} process in {@code dir}, its files as Liquidsoap gets them. */
    private Outcome runProcess(Path dir, List<String> files) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.add("--enable-native-access=ALL-UNNAMED");
        command.add("-Xss16m");
        command.add("-Dgroovecast.bench.plugins=" + BenchSupport.pluginsDir(null).toAbsolutePath());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(LiquidsoapTestRun.class.getName());
        command.add("--timeout=" + timeout);
        for (String s : settings) {
            command.add("--set");
            command.add(s);
        }
        command.addAll(files);
        Path log = Files.createTempFile("liq-test", ".log");
        Process p =
                new ProcessBuilder(command)
                        .directory(dir.toFile())
                        .redirectErrorStream(true)
                        .redirectOutput(log.toFile())
                        .start();
        int code;
        try {
            code = p.waitFor((long) (timeout + 30), TimeUnit.SECONDS) ? p.exitValue() : -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            code = -1;
        }
        if (code == -1) p.destroyForcibly();
        List<String> out = Files.readAllLines(log, StandardCharsets.UTF_8);
        Files.deleteIfExists(log);
        // Stricter than run_test: a test whose checks run side by side can end with 0 from one
        // check while another failed (its error escaped, or it printed so); a failure here.
        if (code == 0
                && out.stream()
                        .anyMatch(
                                l ->
                                        l.startsWith("Test failed")
                                                || l.contains(" failed, the station goes on: ")
                                                || l.contains("thread.run function failed: "))) {
            return new Outcome(1, "exit 0, but a check failed: " + firstError(out));
        }
        return new Outcome(code, firstError(out));
    }

    /**
     * What {@code tests/language/dune} makes before test_cover runs: {@code cover.png}, the picture
     * {@code write_cover.liq} writes (it takes its target from {@code argv}, which a station has no
     * use for: the bench decodes the picture's base64 itself), and {@code cover.mp3} by ffmpeg with
     * the picture attached. Null when made, else why not.
     */
    private String coverFiles(Path dir) throws IOException {
        Path png = dir.resolve("cover.png");
        Matcher m =
                Pattern.compile("string\\.base64\\.decode\\(\\s*\"([A-Za-z0-9+/=]+)\"")
                        .matcher(Files.readString(dir.resolve("write_cover.liq")));
        if (!m.find()) return "no picture in write_cover.liq";
        Files.write(png, java.util.Base64.getDecoder().decode(m.group(1)));
        List<String> ffmpeg =
                List.of(
                        "ffmpeg",
                        "-hide_banner",
                        "-loglevel",
                        "error",
                        "-f",
                        "lavfi",
                        "-i",
                        "sine=frequency=220:duration=5",
                        "-ac",
                        "2",
                        "-i",
                        png.toString(),
                        "-map",
                        "0",
                        "-map",
                        "1",
                        "-vcodec",
                        "copy",
                        dir.resolve("cover.mp3").toString());
        try {
            Process p = new ProcessBuilder(ffmpeg).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (p.waitFor() != 0) return "ffmpeg: " + out.strip();
        } catch (IOException e) {
            return "ffmpeg: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
        return null;
    }

    /**
     * The first error line: the runner's own {@code ERROR:} line, else a failed function's log
     * line, else a line saying the test failed.
     */
    private static String firstError(List<String> out) {
        for (String l : out) if (l.startsWith("ERROR: ")) return l.substring(7);
        for (String l : out) {
            int i = l.indexOf(" failed, the station goes on: ");
            if (i >= 0) return l.substring(i + " failed, the station goes on: ".length());
            i = l.indexOf("thread.run function failed: ");
            if (i >= 0) return l.substring(i + "thread.run function failed: ".length());
        }
        for (String l : out) if (l.contains("Test failed") || l.contains("rror")) return l;
        return "";
    }

    private static void copy(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> s = Files.list(from)) {
            for (Path f : s.toList()) {
                if (Files.isRegularFile(f)) Files.copy(f, to.resolve(f.getFileName()));
            }
        }
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        }
    }
}
