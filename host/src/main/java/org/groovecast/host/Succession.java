package org.groovecast.host;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.groovecast.api.Source;

/**
 * Which source of a reloaded station replaces which of the running one: the same kind and {@code
 * id:}, or, when unnamed, the same kind and {@link Source#endpoint() endpoint}, and the same class.
 * A source without either starts afresh.
 *
 * @param pairs new source to the one it replaces, in the new script's order
 * @param added new sources with no predecessor
 * @param removed old sources no new one replaces
 */
record Succession(Map<Source, Source> pairs, List<Source> added, List<Source> removed) {

    static Succession of(List<? extends Source> before, List<? extends Source> after) {
        Map<String, Source> old = new LinkedHashMap<>();
        List<Source> unkeyed = new ArrayList<>();
        for (Source s : before) {
            String k = key(s);
            if (k == null || old.putIfAbsent(k, s) != null) unkeyed.add(s);
        }
        Map<Source, Source> pairs = new LinkedHashMap<>();
        List<Source> added = new ArrayList<>();
        for (Source s : after) {
            String k = key(s);
            Source previous = k == null ? null : old.get(k);
            // A plugin upgraded by the reload brings its own classes: those start afresh.
            if (previous != null && previous.getClass() == s.getClass()) {
                old.remove(k);
                pairs.put(s, previous);
            } else {
                added.add(s);
            }
        }
        List<Source> removed = new ArrayList<>(old.values());
        removed.addAll(unkeyed);
        return new Succession(pairs, added, removed);
    }

    /** The identity a source keeps across a reload, or null when it has none. */
    static String key(Source s) {
        if (s.isNamed()) return s.kind() + " " + s.id();
        String e = s.endpoint();
        return e == null ? null : s.kind() + " " + e;
    }
}
