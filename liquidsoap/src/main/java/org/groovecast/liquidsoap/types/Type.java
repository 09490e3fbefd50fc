package org.groovecast.liquidsoap.types;

import java.util.List;

/**
 * A type of the Liquidsoap language as the checker works on it (Liquidsoap's {@code Type.t}): the
 * ground types, type constructors ({@code source}, {@code format}), lists, tuples, nullable types,
 * methods (a base type with one more named field), functions, getters, variables (mutable, see
 * {@link TypeVar}) and the contents of tracks. Every type but a variable is immutable; a variable
 * links to what it was found to be, so a type is read through {@link #deref}.
 */
sealed interface Type
        permits Type.Ground,
                Type.Constr,
                Type.ListType,
                Type.TupleType,
                Type.Nullable,
                Type.Meth,
                Type.Arrow,
                Type.Getter,
                Type.TrackKind,
                Type.TrackFormat,
                TypeVar {

    Ground INT = new Ground("int");
    Ground FLOAT = new Ground("float");
    Ground STRING = new Ground("string");
    Ground BOOL = new Ground("bool");
    Ground NEVER = new Ground("never");
    TupleType UNIT = new TupleType(List.of());

    /** How a constructor's parameter, or a variable's link, may be widened. */
    enum Variance {
        /** may become a supertype later (a list's element after {@code [1, null]}) */
        COVARIANT,
        INVARIANT
    }

    /**
     * A type without parameters: int, float, string, bool, never, and the opaque types of the
     * runtime (request, regexp, clock...).
     */
    record Ground(String name) implements Type {}

    /** {@code source(...)}, {@code format(...)}: a named constructor over parameters. */
    record Constr(String name, List<Param> params) implements Type {}

    record Param(Variance variance, Type type) {}

    /** {@code [t]}; {@code [(string * t)] as json.object} when {@code jsonObject}. */
    record ListType(Type element, boolean jsonObject) implements Type {}

    /** {@code (a * b)}; the empty tuple is unit. */
    record TupleType(List<Type> elements) implements Type {}

    /** {@code t?}: a t or null. */
    record Nullable(Type of) implements Type {}

    /**
     * {@code base.{name : scheme}}: base with a field; optional ({@code name?}) when it may be
     * absent. A field's type may be polymorphic ({@code list.map}), hence a scheme.
     */
    record Meth(String name, boolean optional, Scheme scheme, String jsonName, Type base)
            implements Type {}

    /** {@code (a, label : b, ?opt : c) -> r}. */
    record Arrow(List<Arg> args, Type result) implements Type {}

    /** A function's parameter: its label ("" for a positional one), optional when it has one. */
    record Arg(boolean optional, String label, Type type) {}

    /** {@code {t}}: a t or a function of no argument returning one. */
    record Getter(Type of) implements Type {}

    /**
     * The content of a track of a source: its kind ({@code pcm}, {@code canvas}, {@code midi},
     * {@code ffmpeg.copy}...) and its format, a {@link TrackFormat} or a variable while unknown.
     */
    record TrackKind(String kind, Type format) implements Type {}

    /** A track's format: its kind and its parameters ({@code pcm(stereo)}), merged when met. */
    record TrackFormat(String kind, ContentFormat params) implements Type {}

    /** A type with the variables that are instantiated afresh at each use. */
    record Scheme(List<TypeVar> generalized, Type type) {
        static Scheme mono(Type type) {
            return new Scheme(List.of(), type);
        }
    }

    /** What a type is, through the links of the variables it went through. */
    static Type deref(Type t) {
        while (t instanceof TypeVar v && v.link() != null) t = v.link();
        return t;
    }

    /** The type under its methods. */
    static Type demeth(Type t) {
        t = deref(t);
        while (t instanceof Meth m) t = deref(m.base());
        return t;
    }

    static Type nullable(Type of) {
        return deref(of) instanceof Nullable ? of : new Nullable(of);
    }

    static Arrow function(Type result, Arg... args) {
        return new Arrow(List.of(args), result);
    }

    /** {@code ref(t)}: {@code (() -> t).{set : (t) -> unit}}. */
    static Type reference(Type of) {
        return new Meth(
                "set",
                false,
                Scheme.mono(function(UNIT, new Arg(false, "", of))),
                null,
                function(of));
    }
}
