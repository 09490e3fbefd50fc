package org.groovecast.host.status;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.groovecast.api.ClockInfo;
import org.groovecast.api.Output;
import org.groovecast.api.Queued;
import org.groovecast.api.Source;
import org.groovecast.net.Network;
import org.groovecast.net.harbor.HarborMount;
import org.groovecast.net.harbor.HarborOutput;
import org.groovecast.net.harbor.LiveInput;
import org.groovecast.net.listening.ListeningServer;
import org.groovecast.net.output.EncodedOutput;

/**
 * A running station as its status page and JSON APIs show it: outputs with what they play and
 * played, clocks with their last ten minutes, the scheduler's load, live inputs, queues. Made when
 * the station starts; its reads are what the engine holds at that instant.
 *
 * <p>What only the station's staff should see (a DJ's address and login, RTMP stream keys, which
 * OBS users treat as the publishing secret) is in the {@code detailed} view alone.
 */
public final class StationStatus {
    private final String station;
    private volatile long startedAt = System.currentTimeMillis();
    private final List<ClockTrace> traces = new ArrayList<>();
    private final Map<Output, TrackHistory> histories = new LinkedHashMap<>();
    private final List<Source> sources;
    private final Network network;
    private final Supplier<Map<String, Object>> schedulerLoad;
    private final StationHealth health;

    /**
     * The control commands the page's buttons may run: skip per output, push per queue, stop per
     * live input.
     */
    private final Set<String> actions = new HashSet<>();

    private volatile boolean released;

    public StationStatus(
            String station,
            List<ClockInfo> clocks,
            List<Output> outputs,
            List<Source> sources,
            Network network,
            Supplier<Map<String, Object>> schedulerLoad,
            StationHealth health) {
        this.station = station;
        this.health = health;
        this.sources = List.copyOf(sources);
        this.network = network;
        this.schedulerLoad = schedulerLoad;
        for (ClockInfo c : clocks) traces.add(new ClockTrace(c));
        for (Output o : outputs) {
            TrackHistory h = new TrackHistory();
            h.follow(o);
            histories.put(o, h);
            actions.add(o.id() + ".skip");
        }
        for (Source s : sources) {
            if (s instanceof Queued) actions.add(s.id() + ".push");
            if (s instanceof LiveInput) actions.add(s.id() + ".stop");
        }
    }

    /** The stations of the process when it runs several (each name, on air, failures). */
    private volatile Supplier<List<Map<String, Object>>> roster = List::of;

    /** Lists the process's stations on the page and in its events (see {@code Stations}). */
    public void roster(Supplier<List<Map<String, Object>>> stations) {
        roster = stations;
    }

    public String station() {
        return station;
    }

    /** Whether the station is alive and ready: {@code /healthz}, {@code /readyz}. */
    public StationHealth health() {
        return health;
    }

    /** One sample of every clock; the station calls it once a second on its scheduler. */
    public void sample() {
        ClockTrace.sampleAll(traces, System.currentTimeMillis());
    }

    /**
     * A reload: the outputs that go on in the new station ({@code successors}: new to old) keep
     * their history, the clocks of the same name their traces, the station its start time.
     */
    public void inherit(
            StationStatus previous, Map<? extends Source, ? extends Source> successors) {
        if (previous == null) return;
        startedAt = previous.startedAt;
        successors.forEach(
                (o, before) -> {
                    TrackHistory now = histories.get(o);
                    TrackHistory then = previous.histories.get(before);
                    if (now != null && then != null) now.inherit(then);
                });
        for (ClockTrace t : traces) {
            for (ClockTrace p : previous.traces) {
                if (p.clock().getId().equals(t.clock().getId())) t.inherit(p);
            }
        }
    }

    /** Stops following the outputs' metadata (the station stopped); its event streams end. */
    public void release() {
        released = true;
        histories.values().forEach(TrackHistory::release);
    }

    boolean isReleased() {
        return released;
    }

    /** Whether the page's buttons may run {@code command}. */
    boolean allows(String command) {
        return actions.contains(command);
    }

    Map<Output, TrackHistory> histories() {
        return histories;
    }

    long startedAt() {
        return startedAt;
    }

    /** The harbor mounts of the station's outputs, in script order. */
    List<HarborOutput> mounts() {
        List<HarborOutput> m = new ArrayList<>();
        for (Output o : histories.keySet()) if (o instanceof HarborOutput h) m.add(h);
        return m;
    }

    // ---------------------------------------------------------------- views

    /** Now playing and history per output: {@code /api/nowplaying}. */
    public Map<String, Object> nowPlaying() {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("station", station);
        List<Object> outputs = new ArrayList<>();
        histories.forEach((o, h) -> outputs.add(output(o, h)));
        r.put("outputs", outputs);
        return r;
    }

    /** Each clock's figures now: {@code /api/clocks}. */
    public Map<String, Object> clocks() {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("station", station);
        List<Object> list = new ArrayList<>();
        for (ClockTrace t : traces) list.add(clock(t.clock()));
        r.put("clocks", list);
        r.put("scheduler", schedulerLoad.get());
        return r;
    }

    /**
     * Everything the status page shows, as one event.
     *
     * @param withTraces adds the clocks' whole ten-minute windows
     * @param actions whether the page has buttons
     * @param detailed adds what only a logged-in user sees
     */
    public Map<String, Object> snapshot(boolean withTraces, boolean actions, boolean detailed) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("station", station);
        r.put("time", System.currentTimeMillis());
        r.put("startedAt", Instant.ofEpochMilli(startedAt).toString());
        r.put("actions", actions);
        r.put("scheduler", schedulerLoad.get());
        r.put("stations", roster.get());
        List<Object> clocks = new ArrayList<>();
        for (ClockTrace t : traces) {
            Map<String, Object> c = clock(t.clock());
            if (withTraces) {
                ClockTrace.Window w = t.window();
                c.put("trace", Map.of("at", w.at(), "duty", w.duty(), "lag", w.lag()));
            }
            clocks.add(c);
        }
        r.put("clocks", clocks);
        List<Object> outputs = new ArrayList<>();
        histories.forEach((o, h) -> outputs.add(output(o, h)));
        r.put("outputs", outputs);
        List<Object> inputs = new ArrayList<>();
        List<Object> queues = new ArrayList<>();
        for (Source s : sources) {
            if (s instanceof LiveInput live) inputs.add(live(live, detailed));
            if (s instanceof Queued q) queues.add(Map.of("id", s.id(), "length", q.queue().size()));
        }
        r.put("inputs", inputs);
        r.put("queues", queues);
        // Each listening server that has something to list, under its protocol's name ("rtmp").
        Map<String, List<Object>> listed = new LinkedHashMap<>();
        for (ListeningServer l : network.servers()) {
            Map<String, Object> st = l.status(detailed);
            if (st != null) listed.computeIfAbsent(l.protocol(), k -> new ArrayList<>()).add(st);
        }
        r.putAll(listed);
        return r;
    }

    private static Map<String, Object> clock(ClockInfo c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", c.getId());
        m.put("duty", ClockTrace.finite(c.getDuty()));
        m.put("lag", ClockTrace.finite(c.getLag()));
        double since = c.getBehindSince();
        m.put(
                "behindSince",
                since > 0 ? Instant.ofEpochMilli((long) (since * 1e3)).toString() : null);
        m.put("skipped", ClockTrace.finite(c.getSkipped()));
        m.put("ticks", c.getTicks());
        m.put("time", ClockTrace.finite(c.getTime()));
        return m;
    }

    private static Map<String, Object> live(LiveInput live, boolean detailed) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", live.id());
        m.put("mount", live.path());
        LiveInput.Connection c = live.connection();
        m.put("connected", c != null);
        if (c != null) {
            if (detailed) {
                m.put("client", c.client());
                m.put("name", c.name());
            }
            m.put("since", Instant.ofEpochMilli(c.since()).toString());
            m.put("seconds", (System.currentTimeMillis() - c.since()) / 1000);
        }
        return m;
    }

    private Map<String, Object> output(Output o, TrackHistory h) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", o.id());
        m.put("kind", o.kind());
        if (o instanceof HarborOutput ho) {
            HarborMount mount = ho.mount();
            m.put("mount", mount.path());
            m.put("listeners", mount.listeners());
            m.put("listenerPeak", mount.listenerPeak());
        }
        if (o instanceof EncodedOutput e) {
            m.put("format", e.encoder().name());
            if (e.encoder().bitrate() > 0) m.put("bitrate", e.encoder().bitrate());
        }
        TrackHistory.Snapshot songs = h.snapshot();
        if (songs.current() != null) {
            Map<String, Object> np = track(songs.current());
            np.put("elapsed", (System.currentTimeMillis() - songs.current().startedAt()) / 1000.0);
            double remaining = remainingSeconds(o);
            if (remaining >= 0) np.put("remaining", remaining);
            m.put("nowPlaying", np);
        }
        List<Object> past = new ArrayList<>();
        for (TrackHistory.Entry e : songs.past()) past.add(track(e));
        m.put("history", past);
        return m;
    }

    private static Map<String, Object> track(TrackHistory.Entry e) {
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("title", e.title());
        t.put("artist", e.artist());
        t.put("startedAt", Instant.ofEpochMilli(e.startedAt()).toString());
        t.put("metadata", new LinkedHashMap<>(e.metadata()));
        return t;
    }

    /** Seconds left in the output's track, or -1 when its source does not know. */
    private static double remainingSeconds(Output o) {
        if (o.context() == null) return -1;
        long samples;
        try {
            samples = o.remaining(); // read off the clock: a source mid-change may throw,
            // which only hides the figure
        } catch (RuntimeException e) {
            return -1;
        }
        return samples < 0
                ? -1
                : Math.round(samples * 100.0 / o.context().format().sampleRate()) / 100.0;
    }
}
