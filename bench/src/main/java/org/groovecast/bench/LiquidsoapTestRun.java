package org.groovecast.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.groovecast.api.OperatorSpec;
import org.groovecast.api.ValueType;
import org.groovecast.host.Station;
import org.groovecast.host.plugin.OperatorPlugins;
import org.groovecast.host.script.ScriptFunctions;

/**
 * One Liquidsoap test as Liquidsoap's runner runs it ({@code liquidsoap test.liq NAME.liq}), as a
 * Groovecast station: {@code LiquidsoapTestRun [--timeout=S] [--set key=value]... test.liq
 * NAME.liq}. The files are {@code %include}d in order by one script, which is loaded through the
 * Liquidsoap front end with the engine's operators and the plugins of {@code
 * -Dgroovecast.bench.plugins} (what {@code groovecast run} does), then started; the station runs
 * until the script calls {@code shutdown()} or {@code exit(n)}, which reach the station's {@code
 * shutdown} operator: this process registers one that ends it with the code (a station of {@code
 * groovecast run} has none and ignores them). Exit codes as Liquidsoap's runner counts them: 0
 * passed, 123 skipped, anything else failed; 1 for a script that does not load, 2 for one still
 * running after the timeout. The first error goes to standard output as an {@code ERROR: } line.
 */
public final class LiquidsoapTestRun {
    private LiquidsoapTestRun() {}

    public static void main(String[] args) throws Exception {
        double timeout = 20;
        List<Path> files = new ArrayList<>();
        Map<String, String> settings = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.startsWith("--timeout=")) timeout = Double.parseDouble(a.substring(10));
            else if (a.equals("--set") && i + 1 < args.length) {
                String kv = args[++i];
                int eq = kv.indexOf('=');
                settings.put(kv.substring(0, eq), kv.substring(eq + 1));
            } else files.add(Path.of(a).toAbsolutePath());
        }
        System.exit(run(files, timeout, settings));
    }

    private static int run(List<Path> files, double timeout, Map<String, String> settings)
            throws Exception {
        CompletableFuture<Integer> stopped = new CompletableFuture<>();
        Path plugins = BenchSupport.pluginsDir(null);
        try (OperatorPlugins loaded = BenchSupport.loadPlugins(plugins)) {
            ScriptFunctions functions = loaded.functions();
            functions.add(shutdown(stopped), "bench");
            // One script that includes the files in order, named as the last (Liquidsoap's
            // liquidsoap.script.path is the last file given), in a directory of its own.
            Path wrapperDir = Files.createTempDirectory("liq-run");
            Path wrapper = wrapperDir.resolve(files.getLast().getFileName().toString());
            StringBuilder text = new StringBuilder();
            for (Path f : files) text.append("%include \"").append(f).append("\"\n");
            Files.writeString(wrapper, text);
            Station station;
            try {
                station = Station.load(wrapper, functions, settings, Map.of());
            } catch (RuntimeException e) {
                // exit(n) while loading (test.skip() at the top) fails the load after the code
                // was given; so does shutdown() before a load that then fails.
                Integer code = stopped.getNow(null);
                if (code != null) return code;
                System.out.println("ERROR: " + firstLine(e.getMessage()));
                return 1;
            } finally {
                Files.delete(wrapper);
                Files.delete(wrapperDir);
            }
            Integer early = stopped.getNow(null);
            if (early != null) {
                station.stop();
                return early;
            }
            try {
                station.start(null);
            } catch (RuntimeException e) {
                System.out.println("ERROR: " + firstLine(e.getMessage()));
                station.stop();
                return 1;
            }
            int code;
            try {
                code = stopped.get((long) (timeout * 1000), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                System.out.println("ERROR: still running after " + timeout + " s (no shutdown)");
                code = 2;
            }
            Thread.ofPlatform().daemon().start(station::stop);
            station.awaitStopped(Duration.ofSeconds(5));
            System.out.flush();
            return code;
        }
    }

    /** The station's {@code shutdown} operator: the first code given ends the test. */
    private static OperatorSpec shutdown(CompletableFuture<Integer> stopped) {
        return OperatorSpec.named("shutdown")
                .doc("Ends the test with an exit code (the conformance bench's own).")
                .positional("code", ValueType.INTEGER, 0, "the exit code")
                .returns(ValueType.NONE)
                .create(
                        a -> {
                            stopped.complete(a.integer("code"));
                            return null;
                        });
    }

    private static String firstLine(String s) {
        return s == null ? "" : s.lines().findFirst().orElse("");
    }
}
