package org.groovecast.liquidsoap.prelude;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.groovecast.liquidsoap.eval.Builtin;
import org.groovecast.liquidsoap.eval.Errors;
import org.groovecast.liquidsoap.eval.Fn;
import org.groovecast.liquidsoap.eval.Getters;
import org.groovecast.liquidsoap.eval.LiqError;
import org.groovecast.liquidsoap.eval.Tuple;
import org.groovecast.liquidsoap.eval.Values;

/**
 * The {@code file} and {@code path} modules. A failure raises {@code error.file} with the reason.
 */
final class FileFunctions {
    private FileFunctions() {}

    private interface IoBody {
        Object run() throws IOException;
    }

    private static Object io(String what, IoBody body) {
        try {
            return body.run();
        } catch (NoSuchFileException e) {
            throw Errors.of("file", what + ": no such file " + e.getFile());
        } catch (FileAlreadyExistsException e) {
            throw Errors.of("file", what + ": file exists " + e.getFile());
        } catch (IOException e) {
            throw Errors.of("file", what + ": " + e);
        }
    }

    static void register(Library lib) {
        lib.function(
                "file.exists",
                "(string) -> bool",
                "Whether a file exists.",
                a -> Files.exists(path(a.string(0))));
        lib.function(
                "file.is_directory",
                "(string) -> bool",
                "Whether a path is a directory.",
                a -> Files.isDirectory(path(a.string(0))));
        lib.function(
                "file.contents",
                "(string) -> string",
                "A file's whole text.",
                a ->
                        io(
                                "file.contents",
                                () -> BinaryStrings.of(Files.readAllBytes(path(a.string(0))))));
        lib.function(
                "file.read",
                "(string) -> () -> string",
                "A function answering a file's text, then the empty string.",
                a -> {
                    String text =
                            (String)
                                    io(
                                            "file.read",
                                            () ->
                                                    BinaryStrings.of(
                                                            Files.readAllBytes(path(a.string(0)))));
                    AtomicBoolean done = new AtomicBoolean();
                    return Builtin.of(
                            "file.read", List.of(), x -> done.getAndSet(true) ? "" : text);
                });
        lib.function(
                "file.lines",
                "(string) -> [string]",
                "A file's lines.",
                a ->
                        io(
                                "file.lines",
                                () ->
                                        ListFunctions.of(
                                                Files.readAllLines(
                                                        path(a.string(0)),
                                                        StandardCharsets.UTF_8))));
        lib.function(
                "file.write",
                "(data : {string?}, ?perms : int, ?append : bool, ?atomic : bool, ?temp_dir : string?, string) -> unit",
                "Writes text to a file (appends with append=true).",
                Map.of("perms", 0644L, "append", false, "atomic", false),
                a ->
                        io(
                                "file.write",
                                () -> {
                                    Path p = path(a.string(5));
                                    StringBuilder data = new StringBuilder();
                                    Object d = a.get(0);
                                    if (Values.base(d) instanceof Fn) {
                                        for (int i = 0; i < 1_000_000; i++) {
                                            Object chunk = Getters.get(d);
                                            if (chunk == null || "".equals(Values.base(chunk)))
                                                break;
                                            data.append(Values.base(chunk));
                                        }
                                    } else if (d != null) {
                                        data.append(Values.base(d));
                                    }
                                    if (a.bool(3) && !a.bool(2)) {
                                        Path tmp =
                                                Files.createTempFile(
                                                        p.toAbsolutePath().getParent(),
                                                        ".write",
                                                        ".tmp");
                                        Files.write(tmp, BinaryStrings.bytes(data.toString()));
                                        Files.move(
                                                tmp,
                                                p,
                                                StandardCopyOption.REPLACE_EXISTING,
                                                StandardCopyOption.ATOMIC_MOVE);
                                    } else if (a.bool(2)) {
                                        Files.write(
                                                p,
                                                BinaryStrings.bytes(data.toString()),
                                                StandardOpenOption.CREATE,
                                                StandardOpenOption.APPEND);
                                    } else {
                                        Files.write(p, BinaryStrings.bytes(data.toString()));
                                    }
                                    return Tuple.UNIT;
                                }));
        lib.function(
                "file.touch",
                "(?perms : int, string) -> unit",
                "Creates a file when it does not exist.",
                Map.of("perms", 0644L),
                a ->
                        io(
                                "file.touch",
                                () -> {
                                    Path p = path(a.string(1));
                                    if (!Files.exists(p)) Files.createFile(p);
                                    return Tuple.UNIT;
                                }));
        lib.function(
                "file.remove",
                "(string) -> unit",
                "Removes a file.",
                a ->
                        io(
                                "file.remove",
                                () -> {
                                    Files.delete(path(a.string(0)));
                                    return Tuple.UNIT;
                                }));
        lib.function(
                "file.rmdir",
                "(string) -> unit",
                "Removes a directory and what it holds.",
                a ->
                        io(
                                "file.rmdir",
                                () -> {
                                    Path dir = path(a.string(0));
                                    if (Files.exists(dir)) {
                                        try (Stream<Path> s = Files.walk(dir)) {
                                            for (Path p :
                                                    s.sorted(java.util.Comparator.reverseOrder())
                                                            .toList()) Files.delete(p);
                                        }
                                    }
                                    return Tuple.UNIT;
                                }));
        lib.function(
                "file.mkdir",
                "(?perms : int, ?parents : bool, string) -> unit",
                "Makes a directory.",
                Map.of("perms", 0755L, "parents", false),
                a ->
                        io(
                                "file.mkdir",
                                () -> {
                                    if (a.bool(1)) Files.createDirectories(path(a.string(2)));
                                    else Files.createDirectory(path(a.string(2)));
                                    return Tuple.UNIT;
                                }));
        lib.function(
                "file.size",
                "(string) -> int",
                "A file's size in bytes.",
                a -> io("file.size", () -> Files.size(path(a.string(0)))));
        lib.function(
                "file.mtime",
                "(string) -> float",
                "A file's modification time (Unix seconds).",
                a ->
                        io(
                                "file.mtime",
                                () ->
                                        Files.getLastModifiedTime(path(a.string(0))).toMillis()
                                                / 1000.0));
        lib.function(
                "file.ls",
                "(?absolute : bool, ?recursive : bool, ?pattern : string?, ?sorted : bool,"
                        + " string) -> [string]",
                "The files of a directory (whose names match the glob pattern, when given).",
                Map.of("absolute", false, "recursive", false, "sorted", false),
                a ->
                        io(
                                "file.ls",
                                () -> {
                                    Path dir = path(a.string(4));
                                    java.nio.file.PathMatcher glob =
                                            a.isNull(2)
                                                    ? null
                                                    : dir.getFileSystem()
                                                            .getPathMatcher("glob:" + a.string(2));
                                    List<Object> out = new ArrayList<>();
                                    try (Stream<Path> s =
                                            a.bool(1) ? Files.walk(dir).skip(1) : Files.list(dir)) {
                                        for (Path p : s.toList())
                                            if (glob == null || glob.matches(p.getFileName()))
                                                out.add(
                                                        a.bool(0)
                                                                ? p.toString()
                                                                : dir.relativize(p).toString());
                                    }
                                    if (a.bool(3))
                                        out.sort((x, y) -> ((String) x).compareTo((String) y));
                                    return ListFunctions.of(out);
                                }));
        lib.function(
                "file.copy",
                "(?recursive : bool, ?force : bool, ?preserve : bool, string, string) -> unit",
                "Copies a file.",
                Map.of("recursive", false, "force", false, "preserve", false),
                a ->
                        io(
                                "file.copy",
                                () -> {
                                    copy(
                                            path(a.string(3)),
                                            path(a.string(4)),
                                            a.bool(0),
                                            a.bool(1));
                                    return Tuple.UNIT;
                                }));
        lib.function(
                "file.move",
                "(?force : bool, ?atomic : bool, string, string) -> unit",
                "Moves a file (over an existing one with force=true); atomically where the file"
                        + " system can.",
                Map.of("force", false, "atomic", true),
                a ->
                        io(
                                "file.move",
                                () -> {
                                    Path from = path(a.string(2));
                                    Path to = path(a.string(3));
                                    if (!a.bool(0) && Files.exists(to)) {
                                        throw new FileAlreadyExistsException(to.toString());
                                    }
                                    try {
                                        if (a.bool(0))
                                            Files.move(
                                                    from,
                                                    to,
                                                    StandardCopyOption.REPLACE_EXISTING,
                                                    StandardCopyOption.ATOMIC_MOVE);
                                        else Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
                                    } catch (AtomicMoveNotSupportedException e) {
                                        if (a.bool(0))
                                            Files.move(
                                                    from, to, StandardCopyOption.REPLACE_EXISTING);
                                        else Files.move(from, to);
                                    }
                                    return Tuple.UNIT;
                                }));
        lib.function(
                "file.temp",
                "(?directory : string?, string, string) -> string",
                "A new temporary file's path (in directory, when given).",
                a ->
                        io(
                                "file.temp",
                                () ->
                                        (a.isNull(0)
                                                        ? Files.createTempFile(
                                                                a.string(1), a.string(2))
                                                        : Files.createTempFile(
                                                                path(a.string(0)),
                                                                a.string(1),
                                                                a.string(2)))
                                                .toString()));
        lib.function(
                "file.temp_dir",
                "(string, ?string) -> string",
                "A new temporary directory's path.",
                Map.of("", ""),
                a ->
                        io(
                                "file.temp_dir",
                                () ->
                                        Files.createTempDirectory(a.string(0) + a.string(1))
                                                .toString()));
        lib.function(
                "file.extension",
                "(?dir_sep : string, ?leading_dot : bool, string) -> string",
                "A file name's extension.",
                Map.of("dir_sep", "/", "leading_dot", true),
                a -> {
                    String s = a.string(2);
                    int sep = s.lastIndexOf(a.string(0));
                    String name = sep < 0 ? s : s.substring(sep + a.string(0).length());
                    int dot = name.lastIndexOf('.');
                    if (dot <= 0) return "";
                    return a.bool(1) ? name.substring(dot) : name.substring(dot + 1);
                });
        lib.function(
                "path.basename",
                "(string) -> string",
                "A path's last part.",
                a -> {
                    Path p = path(a.string(0)).getFileName();
                    return p == null ? a.string(0) : p.toString();
                });
        lib.function(
                "path.dirname",
                "(string) -> string",
                "A path without its last part.",
                a -> {
                    Path p = path(a.string(0)).getParent();
                    return p == null ? "." : p.toString();
                });
        lib.function(
                "path.concat",
                "(string, string) -> string",
                "Two paths joined.",
                a -> path(a.string(0)).resolve(a.string(1)).toString());
        lib.function(
                "path.home",
                "() -> string",
                "The home directory.",
                a -> System.getProperty("user.home"));
        lib.function(
                "path.remove_extension",
                "(string) -> string",
                "A path without its extension.",
                a -> {
                    String s = a.string(0);
                    int dot = s.lastIndexOf('.');
                    int slash = s.lastIndexOf('/');
                    return dot > slash + 1 ? s.substring(0, dot) : s;
                });
    }

    static Path path(String s) {
        if (s.equals("~") || s.startsWith("~/"))
            s = System.getProperty("user.home") + s.substring(1);
        return Path.of(s);
    }

    /**
     * {@code cp}'s way: into a directory that exists, under the source's name; a directory only
     * with recursive; over an existing file only with force.
     */
    private static void copy(Path from, Path to, boolean recursive, boolean force)
            throws IOException {
        if (Files.isDirectory(to)) to = to.resolve(from.getFileName());
        if (!Files.isDirectory(from)) {
            if (force) Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
            else Files.copy(from, to);
            return;
        }
        if (!recursive)
            throw new IOException(from + " is a directory (copy it with recursive=true)");
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(target);
                else if (force) Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
                else Files.copy(p, target);
            }
        }
    }

    static LiqError fileError(String message) {
        return Errors.of("file", message);
    }
}
