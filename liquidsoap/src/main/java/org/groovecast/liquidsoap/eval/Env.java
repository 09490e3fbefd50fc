package org.groovecast.liquidsoap.eval;

import java.util.Map;

/**
 * The variables in scope: a persistent chain of bindings (a definition makes a new link, so a
 * closure keeps the scope it was made in), ending in the globals (the library and the prelude),
 * read from a map.
 */
public final class Env {
    /** What {@link #lookup} answers for a name in scope nowhere. */
    public static final Object MISSING = new Object();

    private final String name;
    private final Object value;
    private final Env parent;
    private final Map<String, Object> globals;

    private Env(String name, Object value, Env parent, Map<String, Object> globals) {
        this.name = name;
        this.value = value;
        this.parent = parent;
        this.globals = globals;
    }

    /** The scope of a script: the globals alone. */
    public static Env of(Map<String, Object> globals) {
        return new Env(null, null, null, globals);
    }

    public Env bind(String name, Object value) {
        return new Env(name, value, this, globals);
    }

    public Object lookup(String name) {
        for (Env e = this; e != null; e = e.parent) {
            if (e.name != null && e.name.equals(name)) return e.value;
            if (e.parent == null) {
                Object v = e.globals.get(name);
                return v != null || e.globals.containsKey(name) ? v : MISSING;
            }
        }
        return MISSING;
    }

    public boolean has(String name) {
        return lookup(name) != MISSING;
    }

    public Map<String, Object> globals() {
        return globals;
    }

    /** Every binding in scope, the globals first, an inner one over an outer one of its name. */
    public Map<String, Object> flatten() {
        java.util.ArrayDeque<Env> chain = new java.util.ArrayDeque<>();
        for (Env e = this; e != null; e = e.parent) chain.push(e);
        Map<String, Object> all = new java.util.HashMap<>(globals);
        for (Env e : chain) if (e.name != null) all.put(e.name, e.value);
        return all;
    }

    /** The names in scope, for "did you mean" hints. */
    public java.util.Set<String> names() {
        java.util.Set<String> all = new java.util.HashSet<>(globals.keySet());
        for (Env e = this; e != null; e = e.parent) if (e.name != null) all.add(e.name);
        return all;
    }
}
