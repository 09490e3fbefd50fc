package org.groovecast.api;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
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
    private final Map<String, Bounds> bounds;
    private final Map<String, List<String>> calls;
    private final Map<String, Function<Object, String>> checks;
    private final boolean blocking;

    private OperatorSpec(Builder b) {
        this.name = b.name;
        this.doc = b.doc;
        this.positional = List.copyOf(b.positional);
        this.named = List.copyOf(b.named);
        this.returns = b.returns;
        this.factory = Objects.requireNonNull(b.factory, "factory");
        this.methods = Map.copyOf(b.methods);
        this.bounds = Map.copyOf(b.bounds);
        this.calls = Map.copyOf(b.calls);
        this.checks = Map.copyOf(b.checks);
        this.blocking = b.blocking;
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

    /**
     * Whether a call may wait (read a whole file, ask a server): the host refuses it, at the
     * script's line, on a thread that must never wait (a real-time clock's callbacks, an event
     * loop), as it refuses {@code http.get}.
     */
    public boolean blocking() {
        return blocking;
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

    /** The values parameter {@code param} takes, if declared ({@link Builder#range}). */
    public Optional<Bounds> range(String param) {
        return Optional.ofNullable(bounds.get(param));
    }

    /**
     * What the function parameter {@code param} is called with, if declared ({@link
     * Builder#calls}): one description per argument, in order ({@code the selected source}).
     */
    public Optional<List<String>> calls(String param) {
        return Optional.ofNullable(calls.get(param));
    }

    /**
     * What the parameter {@code param}'s values are checked with, if declared ({@link
     * Builder#check}): null for a value it takes, else what is wrong with it.
     */
    public Optional<Function<Object, String>> check(String param) {
        return Optional.ofNullable(checks.get(param));
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
        private final Map<String, Bounds> bounds = new LinkedHashMap<>();
        private final Map<String, List<String>> calls = new LinkedHashMap<>();
        private final Map<String, Function<Object, String>> checks = new LinkedHashMap<>();
        private boolean blocking;
        private Param last;

        private Builder(String name) {
            this.name = name;
        }

        /**
         * Bounds the values of the parameter declared last, a number or an integer: {@code
         * .named("port", INTEGER, 8000, "the port").range(1, 65535)}. The script compiler refuses a
         * literal outside them when the script is checked, and a computed value when the call
         * binds, at the script's line, so an operator never sees one.
         */
        public Builder range(double min, double max) {
            Param p = lastDeclared("range");
            if (p.type() != ValueType.NUMBER && p.type() != ValueType.INTEGER)
                throw new IllegalArgumentException(
                        name + ": range() bounds a number or an integer, not " + p.name());
            bounds.put(p.name(), new Bounds(min, max));
            return this;
        }

        /**
         * Declares what the parameter declared last, a function, is called with: one description
         * per argument, in order ({@code .calls("the selected source")}, nothing for a function
         * called without arguments). The script compiler then refuses, at its line, a closure that
         * cannot take them ({@code { -> }} for one argument, {@code { a, b -> }} for one). Leave it
         * out where the operator adapts to the closure's parameters.
         */
        public Builder calls(String... arguments) {
            Param p = lastDeclared("calls");
            if (p.type() != ValueType.FUNCTION)
                throw new IllegalArgumentException(
                        name + ": calls() describes a function parameter, not " + p.name());
            calls.put(p.name(), List.of(arguments));
            return this;
        }

        /**
         * Checks the values of the parameter declared last beyond their type: {@code problem}
         * answers null for a value it takes, else one line saying what is wrong ({@code
         * "'10.0.0.1/8' has host bits set"}). The script compiler calls it with what the script
         * writes when the script is checked (a literal, or a list or map of them: a map's entries
         * whose values are not known until run time left out), and with the computed value when the
         * call binds, and refuses the call at the script's line with its answer, so an operator
         * never sees such a value. It must not block, nor throw.
         */
        public Builder check(Function<Object, String> problem) {
            checks.put(lastDeclared("check").name(), Objects.requireNonNull(problem, "problem"));
            return this;
        }

        private Param lastDeclared(String what) {
            if (last == null)
                throw new IllegalArgumentException(
                        name + ": " + what + "() follows the parameter it is about");
            return last;
        }

        public Builder doc(String doc) {
            this.doc = doc;
            return this;
        }

        /** Marks a call that may wait; see {@link OperatorSpec#blocking()}. */
        public Builder blocking() {
            this.blocking = true;
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
            last = p;
            return this;
        }

        /** A named parameter with a default. */
        public Builder named(String name, ValueType type, Object defaultValue, String doc) {
            last = new Param(name, type, defaultValue, false, doc);
            named.add(last);
            return this;
        }

        /** A named parameter the script must give. */
        public Builder requiredNamed(String name, ValueType type, String doc) {
            last = new Param(name, type, null, true, doc);
            named.add(last);
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
