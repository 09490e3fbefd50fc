package org.groovecast.liquidsoap.types;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The names in scope while checking, each with its type scheme: a map with an undo log, since a
 * script is checked in one walk and a scope ends where it began (a definition's scope is the rest
 * of its sequence). Names not defined by the script come from the builtins, built on first use. It
 * also knows which definitions are functions written in the script, with their parameters, for
 * {@code %argsof}, and which paths a script defined, for {@code %ifdef}.
 */
final class Scope {
    /** A name's type, and the parameters when the script defined it as a function. */
    record Binding(Type.Scheme scheme, List<Applications.ResolvedParam> params) {}

    private record Undo(boolean path, String name, Object previous) {}

    private final Map<String, Binding> names = new HashMap<>();
    private final Map<String, Binding> paths = new HashMap<>();
    private final List<Undo> log = new ArrayList<>();
    private final Function<String, Binding> builtins;

    Scope(Function<String, Binding> builtins) {
        this.builtins = builtins;
    }

    /** A point to come back to with {@link #reset}. */
    int mark() {
        return log.size();
    }

    void reset(int mark) {
        for (int i = log.size() - 1; i >= mark; i--) {
            Undo u = log.remove(i);
            Map<String, Binding> m = u.path ? paths : names;
            if (u.previous == null) {
                m.remove(u.name);
            } else {
                m.put(u.name, (Binding) u.previous);
            }
        }
    }

    void add(String name, Type.Scheme scheme) {
        add(name, new Binding(scheme, null));
    }

    void add(String name, Binding b) {
        log.add(new Undo(false, name, names.put(name, b)));
    }

    /** Records that the script defined {@code path} ({@code x}, {@code a.b}), a function or not. */
    void definePath(String path, List<Applications.ResolvedParam> params) {
        log.add(new Undo(true, path, paths.put(path, new Binding(null, params))));
    }

    /** The binding of a name, the script's or a builtin's; null when unbound. */
    Binding get(String name) {
        Binding b = names.get(name);
        return b != null ? b : builtins.apply(name);
    }

    /** What the script defined at {@code path}, or null. */
    Binding definedPath(String path) {
        return paths.get(path);
    }

    /** The names the script defined and their bindings, as they are now. */
    Map<String, Binding> names() {
        return Map.copyOf(names);
    }

    Map<String, Binding> paths() {
        return Map.copyOf(paths);
    }

    /** The names in scope, for suggestions. */
    Iterable<String> scriptNames() {
        return names.keySet();
    }
}
