package org.groovecast.liquidsoap.syntax;

import java.util.List;

/** A type written in a script: {@code (x : int)}, {@code let json.parse (x : {a: string}) = s}. */
public sealed interface TypeAnnotation extends Node
        permits TypeAnnotation.Named,
                TypeAnnotation.Nullable,
                TypeAnnotation.ListOf,
                TypeAnnotation.JsonObject,
                TypeAnnotation.Tuple,
                TypeAnnotation.Arrow,
                TypeAnnotation.RecordType,
                TypeAnnotation.WithMethods,
                TypeAnnotation.Invoke,
                TypeAnnotation.Source {

    /** {@code int}, {@code string}, {@code _} (any). */
    record Named(Span span, String name) implements TypeAnnotation {}

    /** {@code t?} */
    record Nullable(Span span, TypeAnnotation of) implements TypeAnnotation {}

    /** {@code [t]} */
    record ListOf(Span span, TypeAnnotation of) implements TypeAnnotation {}

    /** {@code [(string * t)] as json.object}: t is the values' type. */
    record JsonObject(Span span, TypeAnnotation of) implements TypeAnnotation {}

    /** {@code (a * b * c)} */
    record Tuple(Span span, List<TypeAnnotation> elements) implements TypeAnnotation {}

    /** {@code (int, ?label: string) -> unit} */
    record Arrow(Span span, List<ArrowArg> args, TypeAnnotation result) implements TypeAnnotation {}

    /** {@code {a: int, b?: string}} */
    record RecordType(Span span, List<Method> methods) implements TypeAnnotation {}

    /** {@code t.{a: int}}; {@code t?.{a: int}} is the same on {@code t?}. */
    record WithMethods(Span span, TypeAnnotation base, List<Method> methods)
            implements TypeAnnotation {}

    /** {@code t.name}: the type of a field of t. */
    record Invoke(Span span, TypeAnnotation base, String name) implements TypeAnnotation {}

    /**
     * {@code source(audio=pcm(stereo), video=canvas, ...)}: the name written ({@code source},
     * {@code format}...), its tracks, and whether {@code ...} allows more.
     */
    record Source(Span span, String name, List<Track> tracks, boolean extensible)
            implements TypeAnnotation {}

    /** An argument of an arrow type: {@code t}, {@code label: t}, {@code ?label: t}. */
    record ArrowArg(Span span, boolean optional, String label, TypeAnnotation type) {}

    /** A field of a record type; {@code jsonName} is the {@code "x" as name: t} key, or null. */
    record Method(Span span, String name, boolean optional, TypeAnnotation type, String jsonName) {}

    /** {@code audio=pcm(stereo)}: the track, its content kind and its parameters. */
    record Track(Span span, String name, String content, List<ContentParam> params) {}

    /**
     * {@code stereo}, {@code channels=2}, {@code "x"}: the label is empty for an unlabelled one;
     * {@code quoted} says the value was a string.
     */
    record ContentParam(Span span, String label, String value, boolean quoted) {}
}
