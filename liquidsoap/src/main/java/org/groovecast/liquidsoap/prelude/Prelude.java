package org.groovecast.liquidsoap.prelude;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.groovecast.liquidsoap.eval.Env;
import org.groovecast.liquidsoap.eval.Evaluator;
import org.groovecast.liquidsoap.eval.Rec;
import org.groovecast.liquidsoap.eval.Ref;
import org.groovecast.liquidsoap.parser.Scripts;
import org.groovecast.liquidsoap.syntax.Expr;
import org.groovecast.liquidsoap.syntax.Pattern.Var;
import org.groovecast.liquidsoap.syntax.Statement;

/**
 * The standard library a script starts with: the Java functions of this package, registered in a
 * {@link Library} with their types, then {@code prelude.liq} (functions simpler written in
 * Liquidsoap, each preceded by a {@code #: type} line that registers its type), evaluated on top.
 */
public final class Prelude {
    private static final String RESOURCE = "prelude.liq";
    private static final Pattern TYPE_LINE =
            Pattern.compile(
                    "(?m)^#: (.+)\\n(?:def|let) (?:rec |replaces )?([A-Za-z_][A-Za-z0-9_.']*)");
    private static volatile Loaded prelude;
    private static final String PRELUDE_DOC = "defined in prelude.liq";

    private record Loaded(Expr.Sequence program, Map<String, String> types) {}

    private Prelude() {}

    /** The library of Java functions, on {@code platform}. */
    public static Library library(Platform platform) {
        Library lib = new Library();
        CoreFunctions.register(lib, platform);
        MathFunctions.register(lib);
        StringFunctions.register(lib);
        ListFunctions.register(lib);
        JsonFunctions.register(lib);
        FileFunctions.register(lib);
        TimeFunctions.register(lib, platform);
        SettingsTree settings = new SettingsTree(platform);
        SystemFunctions.register(lib, platform, settings::logLevel);
        ErrorHandlers.register(lib, platform);
        PredicateFunctions.register(lib);
        InteractiveFunctions.register(lib, platform);
        ProcessFunctions.register(lib);
        FileWatch.register(lib, platform);
        SocketFunctions.register(lib, platform);
        ThreadFunctions.register(lib, platform);
        CronEntry.register(lib, platform);
        CoverArt.register(lib);
        FileCover.register(lib);
        CueSheets.register(lib);
        YamlFunctions.register(lib);
        XmlFunctions.register(lib);
        lib.function(
                "liquidsoap.functions.count",
                "() -> int",
                "How many functions the library has (the prelude's and, on a station, the engine's operators).",
                a ->
                        lib.entries().stream()
                                .filter(
                                        e ->
                                                e.value()
                                                                instanceof
                                                                org.groovecast.liquidsoap.eval.Fn
                                                        || e.doc().equals(PRELUDE_DOC))
                                .count());
        lib.value(
                "settings",
                SettingsTree.type(""),
                settings.root(),
                "Liquidsoap's settings: settings.x.y := v, settings.x.y().");
        for (String[] alias :
                new String[][] {{"level", "int"}, {"file", "bool"}, {"stdout", "bool"}}) {
            lib.value(
                    "log." + alias[0],
                    "ref(" + alias[1] + ")",
                    settings.node("log." + alias[0]),
                    "The same as settings.log." + alias[0] + ".");
        }
        lib.value(
                "init",
                SettingsTree.type("init"),
                settings.node("init"),
                "The same as settings.init.");
        for (String transport : java.util.List.of("ssl", "secure_transport", "tcp")) {
            lib.function(
                    "http.transport." + transport,
                    "(?certificate : string?, ?key : string?, ?password : string?, ?verify : bool) ->"
                            + " http_transport",
                    "A transport for harbor and output.icecast: Groovecast serves TLS with harbor.tls(port:, certificate:, key:) and streams to Icecast over TLS with tls=true.",
                    a -> Rec.record(java.util.Map.of("name", transport)));
        }
        lib.value(
                "frame.duration",
                "ref(float)",
                settings.node("frame.duration"),
                "The same as settings.frame.duration.");
        lib.function(
                "settings.make",
                "(?comments : string, description : string, 'a) -> ref('a).{description : string, comments : string}",
                "A setting of the script's own, let settings.mine.x = settings.make(description=..., default).",
                Map.of("comments", ""),
                a -> {
                    Map<String, Object> f = new java.util.LinkedHashMap<>();
                    f.put("description", a.string(1));
                    f.put("comments", a.string(0));
                    return Rec.with(new Ref(a.get(2)), f);
                });
        lib.function(
                "settings.make.void",
                "(?comments : string, string) -> {description : string, comments : string}",
                "A group of settings of the script's own.",
                Map.of("comments", ""),
                a -> {
                    Map<String, Object> f = new java.util.LinkedHashMap<>();
                    f.put("description", a.string(1));
                    f.put("comments", a.string(0));
                    return Rec.record(f);
                });
        for (Map.Entry<String, String> e : loaded().types().entrySet()) {
            lib.value(e.getKey(), e.getValue(), null, PRELUDE_DOC);
        }
        return lib;
    }

    /**
     * The scope scripts start in: the library's values with prelude.liq's definitions on top (which
     * replace the placeholders {@link #library} registered for their types).
     */
    public static Map<String, Object> globals(Library lib, Evaluator evaluator) {
        Map<String, Object> base = new HashMap<>(lib.globals());
        Env env = evaluator.run(loaded().program(), Env.of(base)).env();
        return Map.copyOf(withoutNulls(env.flatten()));
    }

    private static Map<String, Object> withoutNulls(Map<String, Object> m) {
        Map<String, Object> out = new HashMap<>();
        m.forEach((k, v) -> out.put(k, v == null ? NULL_GLOBAL : v));
        return out;
    }

    /** Map.copyOf takes no nulls: a global whose value is null (none today) would read as this. */
    private static final Object NULL_GLOBAL = org.groovecast.liquidsoap.eval.Tuple.UNIT;

    /** prelude.liq as parsed: its definitions, for the checks of their declared types. */
    public static Expr.Sequence program() {
        return loaded().program();
    }

    /** The type each definition of prelude.liq declares on its {@code #:} line, by name. */
    public static Map<String, String> declaredTypes() {
        return loaded().types();
    }

    private static Loaded loaded() {
        Loaded p = prelude;
        if (p == null) {
            synchronized (Prelude.class) {
                p = prelude;
                if (p == null) prelude = p = load();
            }
        }
        return p;
    }

    private static Loaded load() {
        String text;
        try (InputStream in = Prelude.class.getResourceAsStream(RESOURCE)) {
            if (in == null) throw new IllegalStateException("missing resource " + RESOURCE);
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + RESOURCE, e);
        }
        Expr.Sequence program = Scripts.parse(RESOURCE, text, Path.of("."), List.of()).program();
        Map<String, String> types = new java.util.LinkedHashMap<>();
        Matcher m = TYPE_LINE.matcher(text);
        while (m.find()) types.put(m.group(2), m.group(1).strip());
        List<String> untyped = new ArrayList<>();
        for (Statement s : program.items()) {
            if (s instanceof Statement.Let let
                    && let.pattern() instanceof Var v
                    && !types.containsKey(v.name())) {
                untyped.add(v.name());
            }
        }
        if (!untyped.isEmpty())
            throw new IllegalStateException(RESOURCE + ": no #: type line for " + untyped);
        return new Loaded(program, types);
    }
}
