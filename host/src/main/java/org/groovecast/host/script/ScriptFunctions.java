package org.groovecast.host.script;

import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.groovecast.api.OperatorSpec;

/**
 * Every name a station script can call: the operators that plugins provide plus the engine's
 * built-ins, and the namespaces their dotted names imply ({@code output} for {@code output.file}).
 */
public final class ScriptFunctions {
    private final Map<String, OperatorSpec> specs = new LinkedHashMap<>();
    private final Map<String, String> owners = new LinkedHashMap<>();
    private final Set<String> namespaces = new HashSet<>();
    private final Set<String> methods = new HashSet<>();
    private final Map<Class<?>, Object> services = new LinkedHashMap<>();
    private final Map<String, Class<?>> resultClasses = new LinkedHashMap<>();

    /**
     * Adds {@code spec}, provided by {@code owner} (a plugin id or "engine").
     *
     * @throws IllegalStateException when another owner already provides the name
     */
    public void add(OperatorSpec spec, String owner) {
        String previous = owners.get(spec.name());
        if (previous != null) {
            throw new IllegalStateException(
                    spec.name() + "() is provided by both " + previous + " and " + owner);
        }
        specs.put(spec.name(), spec);
        methods.addAll(spec.methods().keySet());
        owners.put(spec.name(), owner);
        String n = spec.name();
        for (int dot = n.indexOf('.'); dot > 0; dot = n.indexOf('.', dot + 1))
            namespaces.add(n.substring(0, dot));
    }

    /**
     * The same for an engine function whose result is a class of the engine's own ({@code
     * http.get}'s): the static type checker then knows its properties, so that {@code r.stauts} is
     * a script error.
     */
    public void add(OperatorSpec spec, String owner, Class<?> resultClass) {
        add(spec, owner);
        resultClasses.put(spec.name(), resultClass);
    }

    /** The class {@link #add(OperatorSpec, String, Class)} gave {@code name}'s result, if any. */
    public Optional<Class<?>> resultClass(String name) {
        return Optional.ofNullable(resultClasses.get(name));
    }

    /**
     * Records a service a plugin provides beside its operators (a live decoder); the first of a
     * kind wins.
     */
    public <T> void addService(Class<T> type, T service) {
        services.putIfAbsent(type, service);
    }

    /** The service of {@code type} a plugin provides, or null. */
    public <T> T service(Class<T> type) {
        return type.cast(services.get(type));
    }

    public Optional<OperatorSpec> find(String name) {
        return Optional.ofNullable(specs.get(name));
    }

    public String owner(String name) {
        return owners.get(name);
    }

    /** Whether some operator declares a method {@code name} on what it returns. */
    public boolean isDeclaredMethod(String name) {
        return methods.contains(name);
    }

    public boolean isNamespace(String name) {
        return namespaces.contains(name);
    }

    public Collection<OperatorSpec> all() {
        return specs.values();
    }

    /** The closest known name, for "did you mean" hints; empty when nothing is close. */
    public Optional<String> closest(String name) {
        return specs.keySet().stream()
                .map(k -> Map.entry(k, distance(name.toLowerCase(), k.toLowerCase())))
                .filter(e -> e.getValue() <= Math.max(2, name.length() / 3))
                .min(Comparator.comparingInt(Map.Entry::getValue))
                .map(Map.Entry::getKey);
    }

    private static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) prev[j] = j;
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
