package org.groovecast.bench;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.Frame;
import org.groovecast.api.Generator;
import org.groovecast.api.OperatorSpec;
import org.groovecast.api.Source;
import org.groovecast.host.plugin.OperatorPlugins;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Nanoseconds per 20 ms frame (882 samples, stereo, 44.1 kHz) of the station operators, loaded
 * (with libavfilter's acompressor and alimiter through {@code ffmpeg.filter} beside the native
 * compress and limit), from the plugins as a station would: {@code normalize}, {@code compress},
 * {@code limit}, {@code crossfade}, and the chain {@code crossfade(limit(compress(normalize(s))))},
 * against the test tone alone (the baseline, measured in the same run). A station makes 50 frames a
 * second, so ns per frame x 50 / 1e9 is its share of one core.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class OperatorCost {
    static final AudioFormat FORMAT = new AudioFormat(44_100, 2);
    static final int FRAME = 882;
    static final double TARGET_SHARE = 0.02;

    @Param({
        "tone",
        "normalize",
        "compress",
        "limit",
        "crossfade",
        "chain",
        "ffcompress",
        "fflimit"
    })
    public String op;

    private OperatorPlugins plugins;
    private Source source;
    private List<Source> all;
    private Frame frame;

    @Setup(Level.Trial)
    public void setup() {
        plugins =
                OperatorPlugins.load(
                        BenchSupport.pluginsDir(
                                System.getProperty("groovecast.bench.plugins", "")));
        Source tone = new Tone(10);
        source =
                switch (op) {
                    case "tone" -> tone;
                    case "chain" ->
                            make(
                                    "crossfade",
                                    make("limit", make("compress", make("normalize", tone))));
                    // The same jobs through libavfilter, to show which to prefer.
                    case "ffcompress" ->
                            filter(
                                    "acompressor=threshold=-20dB:ratio=4:attack=10:release=100",
                                    tone);
                    case "fflimit" -> filter("alimiter=limit=0.891:attack=5:release=50", tone);
                    default -> make(op, tone);
                };
        all = new ArrayList<>();
        collect(source, all);
        source.prepare(org.groovecast.testkit.TestContext.of(FORMAT, FRAME));
        frame = new Frame(FORMAT, FRAME);
    }

    private static void collect(Source s, List<Source> out) {
        out.add(s);
        for (Source in : s.inputs()) collect(in, out);
    }

    private Source make(String name, Source input) {
        return make(name, input, Map.of());
    }

    private Source filter(String graph, Source input) {
        return make("ffmpeg.filter", input, Map.of("graph", graph));
    }

    private Source make(String name, Source input, Map<String, Object> given) {
        OperatorSpec spec =
                plugins.functions()
                        .find(name)
                        .orElseThrow(
                                () ->
                                        new IllegalStateException(
                                                name
                                                        + "() is not provided by the plugins in "
                                                        + System.getProperty(
                                                                "groovecast.bench.plugins")));
        return (Source) spec.factory().create(new DefaultArguments(spec, withSource(input, given)));
    }

    /** The operator's given values with {@code input} as its {@code source}. */
    private static Map<String, Object> withSource(Source input, Map<String, Object> given) {
        Map<String, Object> all = new java.util.HashMap<>(given);
        all.put("source", input);
        return all;
    }

    @Benchmark
    public Frame frame() {
        for (int i = 0, n = all.size(); i < n; i++) all.get(i).beforeTick();
        frame.clear();
        while (!frame.isFull()) source.get(frame);
        return frame;
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        plugins.close();
    }

    public static void main(String[] args) throws Exception {
        System.out.println(BenchSupport.header("OperatorCost"));
        Collection<RunResult> results =
                new Runner(
                                new OptionsBuilder()
                                        .include(OperatorCost.class.getSimpleName())
                                        .jvmArgsAppend(
                                                "-Dgroovecast.bench.plugins="
                                                        + BenchSupport.pluginsDir(
                                                                        System.getProperty(
                                                                                "groovecast.bench.plugins",
                                                                                ""))
                                                                .toAbsolutePath())
                                        .build())
                        .run();
        Map<String, Double> ns = new HashMap<>();
        for (RunResult r : results)
            ns.put(r.getParams().getParam("op"), r.getPrimaryResult().getScore());
        double base = ns.getOrDefault("tone", Double.NaN);
        System.out.println();
        System.out.printf(
                "%-10s %12s %14s %16s%n%s%n",
                "operator", "ns/frame", "over the tone", "share of a core", "-".repeat(56));
        for (String op :
                List.of(
                        "tone",
                        "normalize",
                        "compress",
                        "limit",
                        "crossfade",
                        "chain",
                        "ffcompress",
                        "fflimit")) {
            Double v = ns.get(op);
            if (v == null) continue;
            double own = op.equals("tone") ? v : v - base;
            System.out.printf(
                    Locale.ROOT,
                    "%-10s %12.0f %14.0f %15.3f%%%n",
                    op,
                    v,
                    own,
                    own * 50 / 1e9 * 100);
        }
        Double chain = ns.get("chain");
        if (chain != null) {
            double share = (chain - base) * 50 / 1e9;
            System.out.printf(
                    Locale.ROOT,
                    "normalize | compress | limit | crossfade: %.3f%% of one core per station "
                            + "(target < %.0f%%: %s)%n",
                    share * 100,
                    TARGET_SHARE * 100,
                    share < TARGET_SHARE ? "PASS" : "FAIL");
        }
        for (String[] pair : new String[][] {{"compress", "ffcompress"}, {"limit", "fflimit"}}) {
            Double own = ns.get(pair[0]);
            Double ff = ns.get(pair[1]);
            if (own != null && ff != null) {
                System.out.printf(
                        Locale.ROOT,
                        "%s: native %.0f ns/frame, through libavfilter %.0f: native / filter = %.2f%n",
                        pair[0],
                        own - base,
                        ff - base,
                        (own - base) / (ff - base));
            }
        }
    }

    /** A stereo test tone in tracks of a known length, so that crossfades happen. */
    static final class Tone extends Generator {
        private final long trackLength;
        private long left;
        private double phase;

        Tone(double trackSeconds) {
            super("tone");
            trackLength = FORMAT.samples(trackSeconds);
            left = trackLength;
        }

        @Override
        public long remaining() {
            return left;
        }

        @Override
        protected void generate(Frame frame) {
            if (left == 0) {
                left = trackLength;
                return;
            }
            int n = (int) Math.min(frame.free(), left);
            int at = frame.position();
            double step = 2 * Math.PI * 440 / FORMAT.sampleRate();
            for (int i = 0; i < n; i++) {
                float v = (float) (0.3 * Math.sin(phase));
                phase += step;
                for (float[] plane : frame.pcm()) plane[at + i] = v;
            }
            if (phase > 2 * Math.PI * 1000) phase -= 2 * Math.PI * 1000;
            frame.advance(n);
            left -= n;
        }
    }
}
