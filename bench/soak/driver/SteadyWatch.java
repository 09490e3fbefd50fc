import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A group of listeners that must stay for the whole run and keep receiving: each interval, every one
 * must get at least half of what the stream's bit rate delivers in that time.
 */
final class SteadyWatch {
    private final String name;
    private final List<Listeners.Listener> listeners;
    private final double expectedBytes;
    private final double interval;
    private final Map<Listeners.Listener, Long> lastBytes = new HashMap<>();
    private final Map<Listeners.Listener, Integer> stalls = new HashMap<>();
    private final Set<Listeners.Listener> connectedAtEnd = new HashSet<>();
    private double slowestKbps = Double.POSITIVE_INFINITY;

    SteadyWatch(String name, List<Listeners.Listener> listeners, double kbps, double interval) {
        this.name = name;
        this.listeners = listeners;
        this.expectedBytes = kbps * 1000 / 8 * interval;
        this.interval = interval;
    }

    int connected() {
        int n = 0;
        for (Listeners.Listener l : listeners) n += l.connected ? 1 : 0;
        return n;
    }

    /** One interval: returns the slowest listener's rate in it (kbit/s; 0 before there is an interval). */
    double update(boolean afterWarmup) {
        double slowest = Double.POSITIVE_INFINITY;
        for (Listeners.Listener l : listeners) {
            long b = l.bytes.get();
            Long before = lastBytes.put(l, b);
            if (before == null) continue; // the first interval includes connecting
            long delta = b - before;
            slowest = Math.min(slowest, delta * 8 / interval / 1000);
            if (delta < expectedBytes / 2) stalls.merge(l, 1, Integer::sum);
        }
        if (afterWarmup) slowestKbps = Math.min(slowestKbps, slowest);
        return Double.isInfinite(slowest) ? 0 : slowest;
    }

    /** Who is connected now: called once, at the end, before the pool hangs up on everyone. */
    void end() {
        for (Listeners.Listener l : listeners) if (l.connected) connectedAtEnd.add(l);
    }

    private List<Listeners.Listener> lost() {
        return listeners.stream().filter(l -> l.dropped != null || !connectedAtEnd.contains(l)).toList();
    }

    void check(Verdict v) {
        List<Listeners.Listener> lost = lost();
        if (listeners.isEmpty()) {
            v.check(true, name, "none");
            return;
        }
        long least = listeners.stream().mapToLong(l -> l.bytes.get()).min().orElse(0);
        List<String> detail = new ArrayList<>();
        detail.add(String.format(Locale.ROOT, "%d/%d connected at the end, least received %d KiB%s",
                listeners.size() - lost.size(), listeners.size(), least / 1024, Double.isInfinite(slowestKbps) ? ""
                        : String.format(Locale.ROOT, ", slowest %.0f s after the warm-up %.0f kbit/s", interval, slowestKbps)));
        for (Listeners.Listener l : lost) detail.add(l.name + " lost: " + (l.dropped == null ? "not connected" : l.dropped));
        stalls.forEach((l, n) -> detail.add(l.name + " got under half the stream rate in " + n + " interval(s)"));
        v.check(lost.isEmpty() && stalls.isEmpty(), name, String.join("; ", detail));
    }
}
