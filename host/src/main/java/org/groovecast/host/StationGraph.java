package org.groovecast.host;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.groovecast.api.Output;
import org.groovecast.api.Source;
import org.groovecast.host.clock.Sync;
import org.groovecast.host.script.ScriptGraph;
import org.groovecast.host.script.ScriptLine;

/** What a station script built: its sources, its outputs and the clocks it asked for. */
public final class StationGraph implements ScriptGraph {
    /** {@code clock.assignNew(id:, sync:, sources)}, with where the script asked, for messages. */
    public record ClockRequest(
            String id, Sync sync, List<Source> sources, ScriptLine at, ClockHandle handle) {}

    private final List<Source> sources = new ArrayList<>();
    private final List<Output> outputs = new ArrayList<>();
    private final List<ClockRequest> clockRequests = new ArrayList<>();
    private final Map<Source, ScriptLine> lines = new IdentityHashMap<>();

    private boolean frozen;

    /**
     * From now on (the station runs) sources made by script code, such as a transition function's,
     * are its own business: recording them here would grow the graph with every call.
     */
    public synchronized void freeze() {
        frozen = true;
    }

    @Override
    public synchronized boolean running() {
        return frozen;
    }

    @Override
    public synchronized void add(Source s, ScriptLine line) {
        if (frozen) return;
        sources.add(s);
        lines.put(s, line);
        if (s instanceof Output o) outputs.add(o);
    }

    public synchronized void requestClock(ClockRequest r) {
        clockRequests.add(r);
    }

    /** Where the script created {@code s} (file and line), or null when no script line made it. */
    public synchronized ScriptLine line(Source s) {
        return lines.get(s);
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
