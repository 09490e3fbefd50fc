package org.groovecast.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.groovecast.liquidsoap.parser.ParsedScript;
import org.groovecast.liquidsoap.parser.Scripts;
import org.groovecast.liquidsoap.types.TypeChecker;

/**
 * How long the Liquidsoap type checker takes, against the parse of the same files measured in the
 * same run (the anchor): a generated 1,000-line station split over an include tree (four files),
 * checked against the builtin table; with {@code --checkout}, also Liquidsoap's whole library
 * (18,000 lines), and {@code --script=FILE} (a station of yours, AzuraCast's...) checked in the
 * scope the library leaves. Prints the first (cold) figures and the best of {@code --runs} warm
 * ones, in CPU time of the checking thread.
 */
public final class LiquidsoapCheckSpeed {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private static final String USAGE =
            """
            usage: LiquidsoapCheckSpeed [--checkout=LIQUIDSOAP-CHECKOUT] [--script=FILE] [--runs=20]
              --checkout  also the library of a Liquidsoap 2.4.5 checkout (stdlib.liq and includes)
              --script    also this script, checked in the scope the library leaves (needs --checkout)
              --runs      warm repetitions; the best is printed""";

    public static void main(String[] args) throws IOException {
        Path checkout = null;
        Path script = null;
        int runs = 20;
        for (String a : args) {
            if (a.startsWith("--checkout=")) checkout = Path.of(a.substring(11));
            else if (a.startsWith("--script=")) script = Path.of(a.substring(9));
            else if (a.startsWith("--runs=")) runs = Integer.parseInt(a.substring(7));
            else {
                System.err.println(USAGE);
                System.exit(2);
            }
        }
        TypeChecker checker = TypeChecker.of(LiquidsoapBuiltinTable.load());
        Path dir = Files.createTempDirectory("liq-check-speed");
        System.out.println("Liquidsoap type check, CPU of the checking thread (anchor: the parse)");
        System.out.println();
        try {
            Path station = StationGenerator.write(dir, 1000);
            measure("generated station, 1,000 lines in 4 files", station, null, checker, runs);
        } finally {
            try (var files = Files.list(dir)) {
                for (Path f : files.toList()) Files.delete(f);
            }
            Files.delete(dir);
        }
        if (checkout != null) {
            Path stdlib = checkout.resolve("src/libs/stdlib.liq");
            measure("Liquidsoap's library, stdlib.liq and includes", stdlib, null, checker, runs);
            if (script != null) {
                TypeChecker.Checked library =
                        checker.checkEach(Scripts.parse(stdlib), null).checked();
                measure(script + " after the library", script, library, checker, runs);
            }
        }
    }

    private static void measure(
            String what, Path file, TypeChecker.Checked before, TypeChecker checker, int runs)
            throws IOException {
        long t0 = cpu();
        ParsedScript parsed = Scripts.parse(file);
        long coldParse = cpu() - t0;
        t0 = cpu();
        int errors = checker.checkEach(parsed, before).errors().size();
        long coldCheck = cpu() - t0;
        long parse = Long.MAX_VALUE;
        long check = Long.MAX_VALUE;
        for (int i = 0; i < runs; i++) {
            t0 = cpu();
            ParsedScript p = Scripts.parse(file);
            parse = Math.min(parse, cpu() - t0);
            t0 = cpu();
            checker.checkEach(p, before);
            check = Math.min(check, cpu() - t0);
        }
        int lines = 0;
        for (Path f : parsed.files()) lines += Files.readAllLines(f).size();
        System.out.println(what);
        row("files, lines", parsed.files().size() + ", " + String.format("%,d", lines));
        row("statements refused", String.valueOf(errors));
        row(
                "first parse / first check",
                String.format(Locale.ROOT, "%.1f ms / %.1f ms", coldParse / 1e6, coldCheck / 1e6));
        row(
                "warm parse / warm check (best of " + runs + ")",
                String.format(
                        Locale.ROOT,
                        "%.2f ms / %.2f ms, check = %.1f x parse",
                        parse / 1e6,
                        check / 1e6,
                        (double) check / parse));
        System.out.println();
    }

    private static void row(String what, String value) {
        System.out.printf("  %-40s %s%n", what, value);
    }

    private static long cpu() {
        return THREADS.getCurrentThreadCpuTime();
    }

    /** A station of plausible shape, made of a template repeated with fresh names. */
    static final class StationGenerator {
        private StationGenerator() {}

        /** Writes main.liq including three files; about {@code lines} lines in all. */
        static Path write(Path dir, int lines) throws IOException {
            int blocks = lines / 50;
            StringBuilder[] parts = {new StringBuilder(), new StringBuilder(), new StringBuilder()};
            for (int i = 0; i < blocks - 5; i++) parts[i * 3 / (blocks - 5)].append(block(i));
            for (int k = 0; k < 3; k++)
                Files.writeString(dir.resolve("part" + k + ".liq"), parts[k]);
            StringBuilder main = new StringBuilder("# a generated station\n");
            for (int k = 0; k < 3; k++) main.append("%include \"part").append(k).append(".liq\"\n");
            for (int i = 0; i < 5 * 50 - 10; i++) {
                if (i % 2 == 0) main.append("# the mix, part ").append(i).append('\n');
                else main.append("log(\"mix \" ^ string(").append(i).append(" + 1))\n");
            }
            main.append("radio = add([mix").append(blocks - 6).append(", blank()])\n");
            main.append("output.dummy(fallible=true, radio)\n");
            Path file = dir.resolve("main.liq");
            Files.writeString(file, main);
            return file;
        }

        private static String block(int i) {
            String prev = i == 0 ? "sine()" : "mix" + (i - 1);
            return """
                    # block %1$d: a source, its settings, a few helpers
                    volume%1$d = ref(0.8)
                    names%1$d = ["a", "b", "c", "d"]
                    def label%1$d(~prefix="s", n) =
                      "#{prefix}-#{n}-%1$d"
                    end
                    def louder%1$d(~by=0.1, s) =
                      volume%1$d := volume%1$d() + by
                      tracks = source.tracks(s)
                      source(tracks.{audio=track.audio.amplify({volume%1$d()}, tracks.audio)})
                    end
                    def pick%1$d(l) =
                      if list.length(l) > 2 then list.nth(l, 1) else "none" end
                    end
                    meta%1$d = [("title", label%1$d(prefix="t", 1)), ("artist", pick%1$d(names%1$d))]
                    def on_meta%1$d(m) =
                      title = m["title"]
                      if title != "" then
                        log(label="block%1$d", "now: #{title}")
                      end
                    end
                    counts%1$d = list.map(fun (n) -> string.length(n), names%1$d)
                    total%1$d = ref(0)
                    list.iteri(fun (_, c) -> total%1$d := total%1$d() + c, counts%1$d)
                    settings%1$d = {gain = 1.5, name = "block%1$d", tags = names%1$d}
                    def describe%1$d(r) =
                      "#{r.name}: #{r.gain} (#{list.length(r.tags)} tags)"
                    end
                    text%1$d = describe%1$d(settings%1$d)
                    maybe%1$d = if total%1$d() > 10 then null else "%1$d" end
                    fallback_name%1$d = maybe%1$d ?? "default"
                    s%1$d = louder%1$d(by=0.2, %2$s)
                    s%1$d.on_metadata(synchronous=false, on_meta%1$d)
                    def timed%1$d() =
                      x = time()
                      x > 0.
                    end
                    mix%1$d = switch(track_sensitive=false, [
                      (timed%1$d, s%1$d),
                      ({true}, blank())
                    ])
                    let (first%1$d, second%1$d) = (counts%1$d, text%1$d)
                    let [head%1$d, ...rest%1$d] = names%1$d
                    def twice%1$d(f, x) =
                      f(f(x))
                    end
                    n%1$d = twice%1$d(fun (x) -> x * 2, %1$d)
                    json%1$d = json.stringify(settings%1$d)
                    for i = 1 to 3 do
                      log(level=4, "#{i} #{n%1$d} #{json%1$d} #{head%1$d} #{second%1$d}")
                    end
                    ignore(rest%1$d)
                    ignore(first%1$d)
                    ignore(fallback_name%1$d)
                    ignore(meta%1$d)
                    """
                    .formatted(i, prev);
        }
    }
}
