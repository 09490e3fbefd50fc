package org.groovecast.liquidsoap.syntax;

/** An entry of a record literal: {@code name = value}, or {@code ...r} for all of r's fields. */
public sealed interface RecordEntry extends Node permits RecordEntry.Field, RecordEntry.Spread {

    record Field(Span span, String name, Expr value) implements RecordEntry {}

    record Spread(Span span, Expr value) implements RecordEntry {}
}
