package org.groovecast.api;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The declaration of one script name: its parameters, its result and how to build it. The host uses
 * it to check calls when a script compiles (so a wrong argument is reported with its line before
 * anything starts) and to bind arguments at run time.
 *
 * <pre>{@code
 * OperatorSpec.named("amplify")
 *     .doc("Multiplies the signal by a factor.")
 *     .positional("factor", ValueType.NUMBER, "the gain, 1.0 is unchanged")
 *     .positional("source", ValueType.SOURCE, "what to amplify")
 *     .returns(ValueType.SOURCE)
 *     .create(a -> new Amplify(a.number("factor"), a.source("source")));
 * }</pre>
 */
public final class OperatorSpec {
    private static final Pattern NAME = Pattern.compile("[a-z][A-Za-z0-9]*(\\.[a-z][A-Za-z0-9]*)*");

    /** Builds the operator's value from bound arguments. */
    @FunctionalInterface
    public interface Factory {
        Object create(Arguments args);
    }

    private final String name;
    private final String doc;
    private final List<Param> positional;
    private final List<Param> named;
    private final ValueType returns;
    private final Factory factory;
    private final Map<String, String> methods;

    private OperatorSpec(Builder b) {
        this.name = b.name;
        this.doc = b.doc;
        this.positional = List.copyOf(b.positional);
        this.named = List.copyOf(b.named);
        this.returns = b.returns;
        this.factory = Objects.requireNonNull(b.factory, "factory");
        this.methods = Map.copyOf(b.methods);
    }

    /**
     * Starts a declaration for {@code name}: camelCase words, dotted for a namespace ({@code
     * output.file}).
     */
    public static Builder named(String name) {
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(
                    "operator name must be dotted camelCase words, got '" + name + "'");
        }
        return new Builder(name);
    }

    public String name() {
        return name;
    }

    public String doc() {
        return doc;
    }

    public List<Param> positional() {
        return positional;
    }

    public List<Param> named() {
        return named;
    }

    public ValueType returns() {
        return returns;
    }

    public Factory factory() {
        return factory;
    }

    /**
     * Methods scripts may call on what this operator returns ({@code q.push(uri)}), with their
     * docs.
     */
    public Map<String, String> methods() {
        return methods;
    }

    public Optional<Param> namedParam(String key) {
        return named.stream().filter(p -> p.name().equals(key)).findFirst();
    }

    /**
     * Whether scripts may call it as a method of a source: {@code s.name(...)} means {@code name(s,
     * ...)}.
     */
    public boolean isSourceMethod() {
        return !positional.isEmpty()
                && switch (positional.getFirst().type()) {
                    case SOURCE, SOURCES -> true;
                    default -> false;
                };
    }

    /**
     * A one-line signature for listings and messages: {@code sine(freq = 440.0, amplitude: = 1.0)}.
     */
    public String signature() {
        StringBuilder sb = new StringBuilder(name).append('(');
        List<String> parts = new ArrayList<>();
        for (Param p : named) parts.add(p.name() + ": " + describe(p));
        for (Param p : positional) parts.add(p.name() + " " + describe(p));
        return sb.append(String.join(", ", parts)).append(')').toString();
    }

    private static String describe(Param p) {
        if (p.required()) return p.type().label();
        return p.type().label() + " = " + p.defaultValue();
    }

    @Override
    public String toString() {
        return signature();
    }

    /** Declares parameters in order; named and positional parameters may interleave. */
    public static final class Builder {
        private final String name;
        private String doc = "";
        private final List<Param> positional = new ArrayList<>();
        private final List<Param> named = new ArrayList<>();
        private ValueType returns = ValueType.SOURCE;
        private Factory factory;
        private final Map<String, String> methods = new LinkedHashMap<>();

        private Builder(String name) {
            this.name = name;
        }

        public Builder doc(String doc) {
            this.doc = doc;
            return this;
        }

        /** A required positional parameter. */
        public Builder positional(String name, ValueType type, String doc) {
            return addPositional(new Param(name, type, null, true, doc));
        }

        /** An optional positional parameter; only trailing positionals may be optional. */
        public Builder positional(String name, ValueType type, Object defaultValue, String doc) {
            return addPositional(new Param(name, type, defaultValue, false, doc));
        }

        private Builder addPositional(Param p) {
            if (!positional.isEmpty()) {
                Param last = positional.getLast();
                if (last.type() == ValueType.SOURCES && p.type() != ValueType.FUNCTION) {
                    throw new IllegalArgumentException(
                            name
                                    + ": nothing may follow the 'sources' parameter except a function");
                }
                if (!last.required() && p.required()) {
                    throw new IllegalArgumentException(
                            name + ": required parameter " + p.name() + " after an optional one");
                }
            }
            positional.add(p);
            return this;
        }

        /** A named parameter with a default. */
        public Builder named(String name, ValueType type, Object defaultValue, String doc) {
            named.add(new Param(name, type, defaultValue, false, doc));
            return this;
        }

        /** A named parameter the script must give. */
        public Builder requiredNamed(String name, ValueType type, String doc) {
            named.add(new Param(name, type, null, true, doc));
            return this;
        }

        /**
         * Declares a public method of the returned object that scripts may call, such as a queue's
         * {@code push}: the script compiler lets calls to it through.
         */
        public Builder method(String name, String doc) {
            methods.put(name, doc);
            return this;
        }

        public Builder returns(ValueType type) {
            this.returns = type;
            return this;
        }

        public OperatorSpec create(Factory factory) {
            this.factory = factory;
            return new OperatorSpec(this);
        }
    }
}
