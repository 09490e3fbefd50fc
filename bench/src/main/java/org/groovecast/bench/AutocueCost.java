package org.groovecast.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executor;
import org.groovecast.api.Arguments;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.ClockInfo;
import org.groovecast.api.Encoder;
import org.groovecast.api.Frame;
import org.groovecast.api.OperatorSpec;
import org.groovecast.api.RequestResolver;
import org.groovecast.api.Source;
import org.groovecast.api.StreamContext;
import org.groovecast.api.UserFunction;
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
                cues = (Map<?, ?>) analyze.factory().create(new Given(analyze, b, requests));
                long t2 = System.nanoTime();
                analyze.factory().create(new Given(analyze, b, requests));
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
        Source s = (Source) single.factory().create(new Given(single, Path.of(file), requests));
        s.prepare(new Context());
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
    private record Given(OperatorSpec spec, Path file, RequestResolver resolver)
            implements Arguments {
        private Object raw(String name) {
            if (name.equals("uri")) return file.toString();
            for (org.groovecast.api.Param p : spec.named())
                if (p.name().equals(name)) return p.defaultValue();
            throw new IllegalArgumentException(spec.name() + "() has no parameter " + name);
        }

        @Override
        public RequestResolver requests() {
            return resolver;
        }

        @Override
        public String operator() {
            return spec.name();
        }

        @Override
        public Source source(String name) {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<Source> sources(String name) {
            throw new UnsupportedOperationException();
        }

        @Override
        public double number(String name) {
            return ((Number) raw(name)).doubleValue();
        }

        @Override
        public int integer(String name) {
            return ((Number) raw(name)).intValue();
        }

        @Override
        public String string(String name) {
            return (String) raw(name);
        }

        @Override
        public boolean bool(String name) {
            return (Boolean) raw(name);
        }

        @Override
        public List<?> list(String name) {
            return (List<?>) raw(name);
        }

        @Override
        public Map<?, ?> map(String name) {
            return (Map<?, ?>) raw(name);
        }

        @Override
        public UserFunction function(String name) {
            return (UserFunction) raw(name);
        }

        @Override
        public Encoder encoder(String name) {
            return (Encoder) raw(name);
        }

        @Override
        public Object value(String name) {
            return raw(name);
        }

        @Override
        public boolean given(String name) {
            return name.equals("uri");
        }
    }

    /** Offline: blocking work runs at once, on the caller. */
    private static final class Context implements StreamContext {
        @Override
        public AudioFormat format() {
            return FORMAT;
        }

        @Override
        public int frameSize() {
            return FRAME;
        }

        @Override
        public ClockInfo clock() {
            return new ClockInfo() {
                @Override
                public String getId() {
                    return "bench";
                }

                @Override
                public double getDuty() {
                    return 0;
                }

                @Override
                public double getLag() {
                    return 0;
                }

                @Override
                public long getTicks() {
                    return 0;
                }

                @Override
                public double getTime() {
                    return 0;
                }
            };
        }

        @Override
        public Executor blocking() {
            return Runnable::run;
        }

        @Override
        public boolean realtime() {
            return false;
        }

        @Override
        public void beforeStart(Runnable blockingWork) {
            blockingWork.run();
        }
    }
}
