package org.groovecast.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.groovecast.api.Arguments;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.Frame;
import org.groovecast.api.OperatorSpec;
import org.groovecast.api.RequestResolver;
import org.groovecast.api.Source;
import org.groovecast.bench.BenchSupport.Options;
import org.groovecast.host.plugin.OperatorPlugins;
import org.groovecast.host.request.Protocols;

/**
 * What autocue costs against playing: for {@code --runs} fresh copies of a 60 s mp3 (so that the
 * cache never answers), the time to decode the file once as a station plays it ({@code single},
 * pulled to the track's end as fast as it goes) and the time of {@code autocue.analyze} on another
 * copy (decode, EBU R128 every 100 ms, cue points), then the same file again (the cache). The
 * issue's bound: analysis within 2x one decode.
 */
public final class AutocueCost {
    static final AudioFormat FORMAT = AudioFormat.DEFAULT;
    static final int FRAME = 882;

    private static final String USAGE =
            """
            usage: AutocueCost [--runs=7] [--media=DIR] [--plugins=DIR]
              --runs   fresh copies measured each way (the median is reported)
              --media  where the test file is made (once) with the ffmpeg CLI""";

    public static void main(String[] args) throws Exception {
        Options o = new Options(args, USAGE, "runs", "7", "media", "target/autocue-media");
        System.out.println(BenchSupport.header("AutocueCost"));
        int runs = Integer.parseInt(o.string("runs"));
        Path media = Path.of(o.string("media"));
        Path music = MediaSupport.musicFile(media);
        try (OperatorPlugins plugins =
                        BenchSupport.loadPlugins(BenchSupport.pluginsDir(o.string("plugins")));
                Protocols requests = new Protocols(() -> 30, () -> Long.MAX_VALUE, () -> null)) {
            OperatorSpec single = plugins.functions().find("single").orElseThrow();
            OperatorSpec analyze = plugins.functions().find("autocue.analyze").orElseThrow();
            List<Double> decode = new ArrayList<>();
            List<Double> analysis = new ArrayList<>();
            List<Double> cached = new ArrayList<>();
            Map<?, ?> cues = null;
            for (int i = -1; i < runs; i++) { // run -1 warms the JIT up
                Path a = copy(music, media, "decode-" + i);
                Path b = copy(music, media, "analyze-" + i);
                long t0 = System.nanoTime();
                long samples = playOnce(single, a.toString(), requests);
                long t1 = System.nanoTime();
                cues = (Map<?, ?>) analyze.factory().create(given(analyze, b, requests));
                long t2 = System.nanoTime();
                analyze.factory().create(given(analyze, b, requests));
                long t3 = System.nanoTime();
                Files.delete(a);
                Files.delete(b);
                if (samples < FORMAT.samples(59))
                    throw new IllegalStateException("decoded only " + samples + " samples");
                if (i < 0) continue;
                decode.add((t1 - t0) / 1e6);
                analysis.add((t2 - t1) / 1e6);
                cached.add((t3 - t2) / 1e6);
            }
            double d = median(decode), an = median(analysis), c = median(cached);
            System.out.printf(
                    Locale.ROOT,
                    "60 s mp3, %d runs (medians): decode once %.0f ms, autocue.analyze %.0f ms"
                            + " (%.2fx the decode; bound 2x: %s), again from the cache %.2f ms%n",
                    runs,
                    d,
                    an,
                    an / d,
                    an <= 2 * d ? "PASS" : "FAIL",
                    c);
            System.out.println("its cues: " + cues);
        }
    }

    private static Path copy(Path music, Path dir, String name) throws java.io.IOException {
        return Files.copy(music, dir.resolve(name + ".mp3"), StandardCopyOption.REPLACE_EXISTING);
    }

    /** Plays {@code file} through {@code single} to its first track end; the samples played. */
    private static long playOnce(OperatorSpec single, String file, RequestResolver requests) {
        Source s = (Source) single.factory().create(given(single, Path.of(file), requests));
        s.prepare(org.groovecast.testkit.TestContext.of(FORMAT, FRAME));
        Frame frame = new Frame(FORMAT, FRAME);
        long samples = 0;
        try {
            while (true) {
                s.beforeTick();
                frame.clear();
                s.get(frame);
                samples += frame.position();
                // a get that leaves the frame short ends the track: single plays its file again
                // and again, this was the first time
                if (!frame.isFull() && samples > 0) return samples;
            }
        } finally {
            s.shutdown();
        }
    }

    private static double median(List<Double> xs) {
        List<Double> s = new ArrayList<>(xs);
        Collections.sort(s);
        return s.get(s.size() / 2);
    }

    /** The file as the operator's {@code uri}, every other parameter its default. */
    private static Arguments given(OperatorSpec spec, Path file, RequestResolver requests) {
        return new DefaultArguments(spec, Map.of("uri", file.toString()), requests);
    }
}
