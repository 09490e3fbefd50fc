package org.groovecast.liquidsoap.prelude;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.groovecast.liquidsoap.eval.Call;
import org.groovecast.liquidsoap.eval.Errors;
import org.groovecast.liquidsoap.eval.Fn;
import org.groovecast.liquidsoap.eval.Json;
import org.groovecast.liquidsoap.eval.LiqError;
import org.groovecast.liquidsoap.eval.Rec;
import org.groovecast.liquidsoap.eval.Tuple;
import org.groovecast.liquidsoap.eval.Values;

/**
 * {@code interactive.save(file)} and {@code interactive.load(file)} over the script's interactive
 * variables (getters with a {@code set} field: the prelude's own, or on a station the engine's), in
 * Liquidsoap's file format, so that a file one wrote the other reads: {@code {"float": [["x",
 * 2.0]], "int": [], "bool": [], "string": []}}.
 */
public final class InteractiveFiles {
    private InteractiveFiles() {}

    /** Registers (or replaces) the two functions over {@code variables}, name to variable. */
    public static void register(Library lib, Supplier<Map<String, Fn>> variables) {
        lib.function(
                "interactive.save",
                "(string) -> unit",
                "Writes the interactive variables' values to a JSON file.",
                a -> {
                    write(a.string(0), variables.get());
                    return Tuple.UNIT;
                });
        lib.function(
                "interactive.load",
                "(string) -> unit",
                "Sets the interactive variables to the values of a JSON file interactive.save wrote.",
                a -> {
                    read(a.string(0), variables.get(), lib);
                    return Tuple.UNIT;
                });
    }

    private static String kind(Object v) {
        return switch (Values.base(v)) {
            case Double d -> "float";
            case Long l -> "int";
            case Boolean b -> "bool";
            default -> "string";
        };
    }

    private static void write(String file, Map<String, Fn> variables) {
        Map<String, Object> byKind = new LinkedHashMap<>();
        for (String k : List.of("float", "int", "bool", "string")) byKind.put(k, new ArrayList<>());
        variables.forEach(
                (name, v) -> {
                    Object value = v.call();
                    @SuppressWarnings("unchecked")
                    List<Object> l = (List<Object>) byKind.get(kind(value));
                    l.add(Tuple.of(name, value));
                });
        try {
            Files.writeString(
                    FileFunctions.path(file),
                    Json.stringify(Rec.record(byKind), true, false),
                    StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw Errors.of("file", "interactive.save: " + e.getMessage());
        }
    }

    private static void read(String file, Map<String, Fn> variables, Library lib) {
        Object parsed;
        try {
            parsed =
                    Json.parse(
                            Files.readString(FileFunctions.path(file), StandardCharsets.UTF_8),
                            false);
        } catch (IOException e) {
            throw Errors.of("file", "interactive.load: " + e.getMessage());
        }
        Map<String, Object> values = new LinkedHashMap<>();
        for (Object kind : Values.fields(parsed).values()) {
            if (!(Values.base(kind) instanceof List<?> pairs)) continue;
            for (Object p : pairs) {
                if (Values.base(p) instanceof List<?> pair
                        && pair.size() == 2
                        && Values.base(pair.get(0)) instanceof String name) {
                    values.put(name, Values.base(pair.get(1)));
                }
            }
        }
        values.forEach(
                (name, value) -> {
                    Fn v = variables.get(name);
                    if (v == null) {
                        log(lib, "Variable " + name + " not found.");
                        return;
                    }
                    Object current = Values.base(v.call());
                    Object set =
                            current instanceof Double && value instanceof Long l
                                    ? (Object) l.doubleValue()
                                    : value;
                    try {
                        ((Fn) Values.base(field(v, "set"))).apply(Call.of(null, set));
                    } catch (LiqError e) {
                        log(lib, "Variable " + name + ": " + e.getMessage());
                    }
                });
    }

    private static Object field(Fn v, String name) {
        Object f = v instanceof org.groovecast.liquidsoap.eval.HasFields h ? h.field(name) : null;
        if (!(Values.base(f) instanceof Fn)) throw Errors.invalid("not an interactive variable");
        return f;
    }

    private static void log(Library lib, String message) {
        Object log = lib.entry("log.important") == null ? null : lib.entry("log.important").value();
        if (log instanceof Fn f) f.apply(Call.of(null, message));
    }
}
