package org.groovecast.liquidsoap.prelude;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.groovecast.liquidsoap.eval.Builtin;
import org.groovecast.liquidsoap.eval.Parameter;
import org.groovecast.liquidsoap.eval.Rec;
import org.groovecast.liquidsoap.eval.Tuple;

/**
 * Every name the prelude makes visible to scripts, each registered with its Liquidsoap type written
 * in Liquidsoap's type syntax ({@code list.map : (('a) -> 'b, ['a]) -> ['b]}), and its value. This
 * is the contract with the type checker, which reads {@link #types()}: the pairs (name, type). A
 * function's parameters (labels, which are optional) are read off its type, so the type registered
 * is the way it is called.
 *
 * <p>Names are dotted paths: {@code list.map} is the field {@code map} of the value {@code list} (a
 * module: unit with fields); {@code string} is a function with fields ({@code string(x)} and {@code
 * string.length}). {@code _null} is the module Liquidsoap's parser reads {@code null.x} as. The
 * engine's operators are registered here too, with types derived from their declarations, by the
 * station's front end.
 */
public final class Library {
    /** One name: its type (Liquidsoap syntax), its value, and a line of documentation. */
    public record Entry(String name, String type, Object value, String doc) {}

    private final Map<String, Entry> entries = new LinkedHashMap<>();
    private Map<String, Object> globals;
    private Predicate<String> encoders = name -> false;

    /** The pairs (name, type string) of every name registered, for the type checker. */
    public Map<String, String> types() {
        Map<String, String> out = new LinkedHashMap<>();
        for (Entry e : entries.values()) out.put(e.name(), e.type());
        return Collections.unmodifiableMap(out);
    }

    public List<Entry> entries() {
        return List.copyOf(entries.values());
    }

    public Entry entry(String name) {
        return entries.get(name);
    }

    public boolean has(String name) {
        return entries.containsKey(name);
    }

    /**
     * Whether {@code %name} encodes where the script runs ({@code %ifencoder %mp3}): the station's
     * encoders, none by default.
     */
    public boolean hasEncoder(String name) {
        return encoders.test(name);
    }

    /** Says which encoders exist, for {@link #hasEncoder}. */
    public Library encoders(Predicate<String> available) {
        this.encoders = available;
        return this;
    }

    /** Registers a value of {@code type} under {@code name} (replacing one of that name). */
    public Library value(String name, String type, Object value, String doc) {
        entries.put(name, new Entry(name, type, value, doc));
        globals = null;
        return this;
    }

    /**
     * Registers a Java function of {@code type}, a function type: its parameters are those the type
     * declares, optional ones defaulting to null ({@link org.groovecast.liquidsoap.eval.Args#given}
     * tells whether the call gave one).
     */
    public Library function(String name, String type, String doc, Builtin.Body body) {
        return function(name, type, doc, Map.of(), body);
    }

    /** The same, with the values optional parameters take when left out, by label. */
    public Library function(
            String name, String type, String doc, Map<String, Object> defaults, Builtin.Body body) {
        List<Parameter> params = Signature.parameters(type);
        if (params == null)
            throw new IllegalArgumentException(name + ": not a function type: " + type);
        List<Parameter> withDefaults = new ArrayList<>(params.size());
        for (Parameter p : params) {
            Object d = p.optional() ? defaults.get(p.label()) : null;
            withDefaults.add(new Parameter(p.label(), p.optional(), d));
        }
        return value(name, type, Builtin.of(name, withDefaults, body), doc);
    }

    /** Registers a function whose parameters are given (an engine operator's). */
    public Library function(
            String name, String type, String doc, List<Parameter> params, Builtin.Body body) {
        return value(name, type, Builtin.of(name, params, body), doc);
    }

    /**
     * The top-level values scripts see: {@code list} is unit with a field per {@code list.*} name,
     * {@code string} the function with its fields, and so on down the paths.
     */
    public synchronized Map<String, Object> globals() {
        if (globals == null) {
            Node root = new Node();
            for (Entry e : entries.values()) {
                Node n = root;
                for (String part : e.name().split("\\.")) n = n.child(part);
                n.value = e.value();
                n.hasValue = true;
            }
            Map<String, Object> out = new HashMap<>();
            for (Map.Entry<String, Node> c : root.children.entrySet())
                out.put(c.getKey(), c.getValue().build());
            globals = Collections.unmodifiableMap(out);
        }
        return globals;
    }

    private static final class Node {
        Object value;
        boolean hasValue;
        final Map<String, Node> children = new LinkedHashMap<>();

        Node child(String name) {
            return children.computeIfAbsent(name, k -> new Node());
        }

        Object build() {
            Object base = hasValue ? value : Tuple.UNIT;
            if (children.isEmpty()) return base;
            Map<String, Object> fields = new LinkedHashMap<>();
            for (Map.Entry<String, Node> c : children.entrySet())
                fields.put(c.getKey(), c.getValue().build());
            return Rec.with(base, fields);
        }
    }
}
