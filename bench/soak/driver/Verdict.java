import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The soak's verdict: every series flat after the warm-up (the median of the first window of samples
 * after it against the median of the last window, within the tolerance), and the pass/fail checks of
 * the run (listeners, peers, log). Each line says PASS or FAIL; the run passes when all do.
 */
final class Verdict {
    private final List<Sample> samples;
    private final double warmup;
    private final int window;
    private final double tolerancePct;
    private final List<String> lines = new ArrayList<>();
    private boolean pass = true;

    Verdict(List<Sample> samples, double warmup, int window, double tolerancePct) {
        this.samples = samples;
        this.warmup = warmup;
        this.window = window;
        this.tolerancePct = tolerancePct;
    }

    private List<Sample> afterWarmup() {
        return samples.stream().filter(s -> s.t() >= warmup).toList();
    }

    /** Whether there are two full windows after the warm-up to compare. */
    boolean complete() {
        return afterWarmup().size() >= 2 * window;
    }

    /**
     * Flat when the last window's median is within the tolerance of the first's, or within
     * {@code slack} of it: counts as small as a callback total of 1 move by one with the station's
     * phase (a selection not yet made, the DJ's decoder thread), which is not growth.
     */
    void flat(String name, String unit, double slack, ToDoubleFunction<Sample> series) {
        List<Sample> after = afterWarmup();
        if (after.size() < 2 * window) {
            add(false, name, "only " + after.size() + " samples after the " + (int) warmup + " s warm-up, "
                    + 2 * window + " needed");
            return;
        }
        double first = median(after.subList(0, window), series);
        double last = median(after.subList(after.size() - window, after.size()), series);
        double change = first == 0 ? (last == 0 ? 0 : Double.POSITIVE_INFINITY) : (last - first) / first * 100;
        double max = after.stream().mapToDouble(series).max().orElse(Double.NaN);
        double min = after.stream().mapToDouble(series).min().orElse(Double.NaN);
        boolean ok = Math.abs(change) <= tolerancePct || Math.abs(last - first) <= slack;
        add(ok, name, String.format(Locale.ROOT, "%s%s -> %s%s (%+.1f %%, limit +-%.0f %%%s; range after warm-up %s..%s)",
                fmt(first), unit, fmt(last), unit, change, tolerancePct, slack > 0 ? " or +-" + fmt(slack) : "",
                fmt(min), fmt(max)));
    }

    void check(boolean ok, String name, String detail) {
        add(ok, name, detail);
    }

    private void add(boolean ok, String name, String detail) {
        pass &= ok;
        lines.add(String.format(Locale.ROOT, "  %-4s %-26s %s", ok ? "PASS" : "FAIL", name, detail));
    }

    boolean passed() {
        return pass;
    }

    List<String> lines() {
        return lines;
    }

    private static double median(List<Sample> window, ToDoubleFunction<Sample> series) {
        double[] v = window.stream().mapToDouble(series).sorted().toArray();
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }

    private static String fmt(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e9 ? String.valueOf((long) v) : String.format(Locale.ROOT, "%.1f", v);
    }
}
