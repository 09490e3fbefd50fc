package org.groovecast.liquidsoap.syntax;

import java.util.List;

/**
 * {@code %argsof(source)} or {@code %argsof(source[a, !b])}: the labelled parameters of another
 * function, all of them or those {@code only} named, less those in {@code except}. Written in a
 * function's parameters (declares them) and at a call (passes them on).
 */
public record ArgsOf(Span span, String source, List<String> only, List<String> except)
        implements Arg, Param {}
