package org.groovecast.liquidsoap.parser;

import java.nio.file.Path;
import java.util.List;
import org.groovecast.liquidsoap.syntax.Expr;
import org.groovecast.liquidsoap.syntax.Warning;

/**
 * A script read and parsed: its statements, with every {@code %include} replaced by the included
 * file's (each node's span names the file it comes from); every file read, once, the script first
 * (for watching them); and what Liquidsoap would warn about.
 */
public record ParsedScript(Expr.Sequence program, List<Path> files, List<Warning> warnings) {}
