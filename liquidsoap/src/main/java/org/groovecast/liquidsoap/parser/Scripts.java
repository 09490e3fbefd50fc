package org.groovecast.liquidsoap.parser;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.stream.Collectors;
import org.groovecast.liquidsoap.lexer.SourceText;
import org.groovecast.liquidsoap.syntax.Expr;
import org.groovecast.liquidsoap.syntax.Span;
import org.groovecast.liquidsoap.syntax.SyntaxError;
import org.groovecast.liquidsoap.syntax.Warning;

/**
 * Reads Liquidsoap scripts: parses a file and the files it includes, as Liquidsoap 2.4 loads them.
 * {@code %include "f"} is relative to the including file ({@code ~/} is the home directory); {@code
 * %include_extra "f"} is the same but includes nothing when f does not exist; {@code %include <f>}
 * looks in the library directories, in order. An included file's statements take the place of its
 * {@code %include}, so what it defines is in scope after it. A file that includes itself, directly
 * or not, is an error at the {@code %include} that closes the cycle. Every failure is one {@link
 * SyntaxError}.
 */
public final class Scripts {
    private Scripts() {}

    /** The script in {@code file}; an IOException when it cannot be read at all. */
    public static ParsedScript parse(Path file) throws IOException {
        return parse(file, List.of());
    }

    public static ParsedScript parse(Path file, List<Path> libraryDirs) throws IOException {
        return parse(file, libraryDirs, p -> {});
    }

    /**
     * The same, telling {@code reading} of each file as it is read, also an included one that turns
     * out missing or broken (so that {@code run --watch} follows it).
     */
    public static ParsedScript parse(
            Path file, List<Path> libraryDirs, java.util.function.Consumer<Path> reading)
            throws IOException {
        Loader loader = new Loader(libraryDirs, reading);
        byte[] bytes = readBytes(file);
        Expr.Sequence program = loader.read(file, ScriptText.decode(file.toString(), bytes), 0);
        return new ParsedScript(program, List.copyOf(loader.files), List.copyOf(loader.warnings));
    }

    /** A script given as text (named {@code name}), its includes relative to {@code directory}. */
    public static ParsedScript parse(
            String name, String text, Path directory, List<Path> libraryDirs) {
        Loader loader = new Loader(libraryDirs, p -> {});
        Expr.Sequence program = loader.read(directory.resolve(name), new SourceText(name, text), 0);
        return new ParsedScript(program, List.copyOf(loader.files), List.copyOf(loader.warnings));
    }

    /** Scripts are files: not a device or a pipe, which could be read for ever. */
    private static byte[] readBytes(Path file) throws IOException {
        if (Files.exists(file) && !Files.isRegularFile(file)) {
            throw new IOException("not a regular file");
        }
        return Files.readAllBytes(file);
    }

    private static String reason(IOException e) {
        if (e instanceof NoSuchFileException) return "no such file";
        return "cannot read it: " + e.getMessage();
    }

    /** Reads a file and, through the parser, the files it includes. */
    private static final class Loader implements Includes {
        private final List<Path> libraryDirs;
        private final java.util.function.Consumer<Path> told;
        private final List<Path> files = new ArrayList<>();
        private final List<Warning> warnings = new ArrayList<>();

        /** The files being read, each including the next: where a cycle shows. */
        private final Deque<Path> reading = new ArrayDeque<>();

        private final Deque<Path> readingAsWritten = new ArrayDeque<>();

        Loader(List<Path> libraryDirs, java.util.function.Consumer<Path> reading) {
            this.libraryDirs = List.copyOf(libraryDirs);
            this.told = reading;
        }

        Expr.Sequence read(Path file, SourceText text, int depth) {
            if (!files.contains(file)) files.add(file);
            told.accept(file);
            reading.push(identity(file));
            readingAsWritten.push(file);
            try {
                return Parser.parse(text, this, warnings, depth);
            } finally {
                reading.pop();
                readingAsWritten.pop();
            }
        }

        @Override
        public Expr.Sequence include(Span at, Expr.IncludeKind kind, String name, int depth) {
            Path file = resolve(at, kind, name);
            if (file == null) return null;
            Path identity = identity(file);
            if (reading.contains(identity)) throw cycle(at, file, identity);
            told.accept(file);
            byte[] bytes;
            try {
                bytes = readBytes(file);
            } catch (IOException e) {
                if (kind == Expr.IncludeKind.EXTRA && e instanceof NoSuchFileException) {
                    return null;
                }
                throw new SyntaxError(at, "cannot include \"" + name + "\": " + reason(e));
            }
            return read(file, ScriptText.decode(file.toString(), bytes), depth);
        }

        private Path resolve(Span at, Expr.IncludeKind kind, String name) {
            if (name.equals("-")) {
                throw new SyntaxError(at, "cannot include the standard input");
            }
            if (kind == Expr.IncludeKind.LIBRARY) {
                for (Path dir : libraryDirs) {
                    Path candidate = dir.resolve(name).normalize();
                    if (Files.isRegularFile(candidate)) return candidate;
                }
                throw new SyntaxError(
                        at,
                        "cannot include <"
                                + name
                                + ">: not in the library directories ("
                                + (libraryDirs.isEmpty()
                                        ? "none given"
                                        : libraryDirs.stream()
                                                .map(Path::toString)
                                                .collect(Collectors.joining(", ")))
                                + ")");
            }
            Path path = Path.of(name.startsWith("~/") ? home() + name.substring(1) : name);
            if (path.isAbsolute()) return path.normalize();
            Path parent = readingAsWritten.peek().getParent();
            Path file = (parent == null ? path : parent.resolve(path)).normalize();
            if (kind == Expr.IncludeKind.EXTRA && !Files.exists(file)) return null;
            return file;
        }

        private SyntaxError cycle(Span at, Path file, Path identity) {
            List<String> chain = new ArrayList<>();
            boolean inCycle = false;
            for (var it = reading.descendingIterator(); it.hasNext(); ) {
                Path p = it.next();
                if (p.equals(identity)) inCycle = true;
                if (inCycle) chain.add(p.getFileName().toString());
            }
            chain.add(file.getFileName().toString());
            return new SyntaxError(at, "cyclic %include: " + String.join(" includes ", chain));
        }

        private static String home() {
            return System.getProperty("user.home");
        }

        /** The same file however it is named. */
        private static Path identity(Path file) {
            try {
                return file.toRealPath();
            } catch (IOException e) {
                return file.toAbsolutePath().normalize();
            }
        }
    }
}
