package org.groovecast.liquidsoap.types;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The builtins of one check: each top-level name's type made from the signatures of the name and of
 * its dotted fields ({@code list} is a record of {@code list.map}, {@code list.iter}...), on first
 * use. Each check reads its own copy, so no check sees another's unifications.
 */
final class Builtins {
    /** The signatures grouped by their first name, made once per {@link TypeChecker}. */
    static final class Index {
        private final Map<String, Map<String, String>> byRoot = new HashMap<>();
        private final Map<String, String> flat = new HashMap<>();
        private final Signatures signatures;

        Index(Signatures signatures) {
            this.signatures = signatures;
            Map<String, String> all = new HashMap<>(CoreSignatures.TYPES);
            all.putAll(signatures.types());
            for (var e : all.entrySet()) {
                String path = e.getKey();
                int dot = rootEnd(path);
                String root = dot < 0 ? path : path.substring(0, dot);
                byRoot.computeIfAbsent(root, k -> new TreeMap<>()).put(path, e.getValue());
                flat.put(path, e.getValue());
            }
        }

        /** Where the first name of a dotted path ends (operators hold no field). */
        private static int rootEnd(String path) {
            if (path.length() > 1 && path.indexOf('.', 1) > 0 && Character.isLetter(path.charAt(0))
                    || path.startsWith("_")) {
                return path.indexOf('.', 1);
            }
            return -1;
        }

        Iterable<String> roots() {
            return byRoot.keySet();
        }
    }

    private final Index index;
    private final Map<String, Scope.Binding> made = new HashMap<>();

    Builtins(Index index) {
        this.index = index;
    }

    /** The binding of a top-level builtin name, or null. */
    Scope.Binding get(String root) {
        Scope.Binding b = made.get(root);
        if (b != null || made.containsKey(root)) return b;
        Map<String, String> paths = index.byRoot.get(root);
        if (paths != null) {
            b = new Scope.Binding(build(root, paths), null);
        } else {
            String unknown = index.signatures.unknown(root);
            b = unknown == null ? null : new Scope.Binding(parse(root, unknown), null);
        }
        made.put(root, b);
        return b;
    }

    /** Whether a builtin of that dotted name exists ({@code %ifdef}). */
    boolean has(String path) {
        return index.flat.containsKey(path);
    }

    boolean hasEncoder(String name) {
        return index.signatures.hasEncoder(name);
    }

    /** A builtin's own type, for {@code %argsof}: null when there is none. */
    Type.Scheme signature(String path) {
        String text = index.flat.get(path);
        return text == null ? null : SignatureParser.parse(text);
    }

    Iterable<String> names() {
        return index.roots();
    }

    private static Type.Scheme build(String path, Map<String, String> all) {
        String own = all.get(path);
        Type.Scheme scheme = own == null ? Type.Scheme.mono(Type.UNIT) : parse(path, own);
        // the direct fields, each with its own fields
        Map<String, List<String>> children = new TreeMap<>();
        String prefix = path + ".";
        for (String p : all.keySet()) {
            if (!p.startsWith(prefix)) continue;
            String rest = p.substring(prefix.length());
            int dot = rest.indexOf('.');
            String child = dot < 0 ? rest : rest.substring(0, dot);
            children.computeIfAbsent(child, k -> new ArrayList<>()).add(p);
        }
        Type t = scheme.type();
        for (String child : children.keySet()) {
            Type.Scheme field = build(prefix + child, all);
            t = new Type.Meth(child, false, field, null, t);
        }
        return new Type.Scheme(scheme.generalized(), t);
    }

    private static Type.Scheme parse(String path, String text) {
        try {
            return SignatureParser.parse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "the signature of " + path + ": " + e.getMessage(), e);
        }
    }
}
