package org.groovecast.host;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.groovecast.api.Output;
import org.groovecast.api.Source;
import org.groovecast.host.clock.Sync;

/** What a station script built: its sources, its outputs and the clocks it asked for. */
public final class StationGraph {
    /** {@code clock.assignNew(id:, sync:, sources)}, with the script line for messages. */
    public record ClockRequest(String id, Sync sync, List<Source> sources, int line, ClockHandle handle) {
    }

    private final List<Source> sources = new ArrayList<>();
    private final List<Output> outputs = new ArrayList<>();
    private final List<ClockRequest> clockRequests = new ArrayList<>();
    private final Map<Source, Integer> lines = new IdentityHashMap<>();

    private boolean frozen;

    /**
     * From now on (the station runs) sources made by script code, such as a transition function's,
     * are its own business: recording them here would grow the graph with every call.
     */
    public synchronized void freeze() {
        frozen = true;
    }

    public synchronized void add(Source s, int line) {
        if (frozen) return;
        sources.add(s);
        lines.put(s, line);
        if (s instanceof Output o) outputs.add(o);
    }

    public synchronized void requestClock(ClockRequest r) {
        clockRequests.add(r);
    }

    /** The script line that created {@code s}, or 0. */
    public synchronized int line(Source s) {
        return lines.getOrDefault(s, 0);
    }

    public synchronized List<Source> sources() {
        return List.copyOf(sources);
    }

    public synchronized List<Output> outputs() {
        return List.copyOf(outputs);
    }

    public synchronized List<ClockRequest> clockRequests() {
        return List.copyOf(clockRequests);
    }
}
