package org.groovecast.host;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.groovecast.api.Output;
import org.groovecast.api.Source;
import org.groovecast.host.clock.Sync;

/**
 * Decides which clock drives which output. Sources that are connected share a clock, since one
 * source cannot run at two rates; otherwise each output gets a clock of its own, unless the script
 * grouped sources with {@code clock.assignNew}.
 */
final class ClockPlanner {
    /** One clock to create. */
    record Plan(String id, Sync sync, List<Output> outputs, ClockHandle handle) {}

    private final Map<Source, Source> parent = new IdentityHashMap<>();
    private final Set<Source> linked = Collections.newSetFromMap(new IdentityHashMap<>());

    private ClockPlanner() {}

    static List<Plan> plan(StationGraph graph, Sync defaultSync) {
        return new ClockPlanner().build(graph, defaultSync);
    }

    private List<Plan> build(StationGraph graph, Sync defaultSync) {
        for (Output o : graph.outputs()) link(o);
        for (StationGraph.ClockRequest r : graph.clockRequests()) {
            for (Source s : r.sources()) {
                link(s);
                union(r.sources().getFirst(), s);
            }
        }
        Map<Source, List<Output>> components = new LinkedHashMap<>();
        for (Output o : graph.outputs())
            components.computeIfAbsent(find(o), k -> new ArrayList<>()).add(o);
        Map<Source, StationGraph.ClockRequest> requested = new IdentityHashMap<>();
        for (StationGraph.ClockRequest r : graph.clockRequests()) {
            Source root = find(r.sources().getFirst());
            StationGraph.ClockRequest before = requested.putIfAbsent(root, r);
            if (before != null && !before.id().equals(r.id())) {
                throw r.at().error(
                                "clock.assignNew(id: '"
                                        + r.id()
                                        + "'): these sources are connected to "
                                        + "sources already on clock '"
                                        + before.id()
                                        + "' ("
                                        + (before.at().file().equals(r.at().file())
                                                ? "line " + before.at().line()
                                                : before.at().toString())
                                        + "); connected sources run on one clock");
            }
        }
        List<Plan> plans = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (Map.Entry<Source, List<Output>> e : components.entrySet()) {
            StationGraph.ClockRequest r = requested.get(e.getKey());
            String id = r != null ? r.id() : e.getValue().getFirst().id();
            String unique = id;
            for (int n = 2; !ids.add(unique); n++) unique = id + "_" + n;
            plans.add(
                    new Plan(
                            unique,
                            r != null && r.sync() != null ? r.sync() : defaultSync,
                            e.getValue(),
                            r != null ? r.handle() : null));
        }
        return plans;
    }

    private void link(Source s) {
        if (!linked.add(s)) return;
        parent.putIfAbsent(s, s);
        for (Source in : s.inputs()) {
            parent.putIfAbsent(in, in);
            union(s, in);
            link(in);
        }
    }

    private Source find(Source s) {
        Source p = parent.computeIfAbsent(s, k -> k);
        if (p == s) return s;
        Source root = find(p);
        parent.put(s, root);
        return root;
    }

    private void union(Source a, Source b) {
        Source ra = find(a);
        Source rb = find(b);
        if (ra != rb) parent.put(rb, ra);
    }
}
