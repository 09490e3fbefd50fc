package org.groovecast.liquidsoap.syntax;

/**
 * A parameter of an encoder: {@code bitrate=128}, {@code "b"="64k"}, {@code stereo}, {@code
 * "mono"}, or a nested encoder ({@code %audio(...)}). {@code quoted} says the name was written as a
 * string.
 */
public sealed interface EncoderParam extends Node
        permits EncoderParam.Labelled, EncoderParam.Flag, EncoderParam.Nested {

    record Labelled(Span span, String label, boolean quoted, Expr value) implements EncoderParam {}

    record Flag(Span span, String name, boolean quoted) implements EncoderParam {}

    record Nested(Expr.Encoder encoder) implements EncoderParam {
        @Override
        public Span span() {
            return encoder.span();
        }
    }
}
