package org.groovecast.host.script;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.groovecast.api.Source;

/**
 * Numbers the sources a script makes, per kind ({@code sine_1}, {@code sine_2}), so that messages,
 * logs and control commands tell two of a kind apart. The numbers are the process's, not a
 * station's: a reloaded station's sources get new ones, as they did when the api counted them.
 */
final class SourceSerials {
    private static final ConcurrentHashMap<String, AtomicInteger> SERIALS =
            new ConcurrentHashMap<>();

    private SourceSerials() {}

    /**
     * Numbers {@code s}, a script's new source, unless it was named, and, depth first, the inputs
     * it made for itself (a {@code mksafe}'s silence); the inputs the script made before were
     * numbered then.
     */
    static void number(Source s) {
        visit(s, true);
    }

    private static void visit(Source s, boolean made) {
        // Without a name or a number a source's id is its kind: Source.number gives the first one.
        boolean fresh = !s.isNamed() && s.id().equals(s.kind());
        if (fresh) s.number(next(s.kind()));
        if (fresh || made) {
            for (Source in : s.inputs()) visit(in, false);
        }
    }

    private static int next(String kind) {
        return SERIALS.computeIfAbsent(kind, k -> new AtomicInteger()).incrementAndGet();
    }
}
