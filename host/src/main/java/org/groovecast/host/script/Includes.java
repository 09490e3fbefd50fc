package org.groovecast.host.script;

import static org.codehaus.groovy.ast.tools.GeneralUtils.args;
import static org.codehaus.groovy.ast.tools.GeneralUtils.callThisX;
import static org.codehaus.groovy.ast.tools.GeneralUtils.callX;
import static org.codehaus.groovy.ast.tools.GeneralUtils.castX;
import static org.codehaus.groovy.ast.tools.GeneralUtils.classX;
import static org.codehaus.groovy.ast.tools.GeneralUtils.ctorX;
import static org.codehaus.groovy.ast.tools.GeneralUtils.fieldX;
import static org.codehaus.groovy.ast.tools.GeneralUtils.param;
import static org.codehaus.groovy.ast.tools.GeneralUtils.returnS;
import static org.codehaus.groovy.ast.tools.GeneralUtils.stmt;
import static org.codehaus.groovy.ast.tools.GeneralUtils.varX;

import groovy.lang.GroovyClassLoader;
import groovy.lang.GroovyCodeSource;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.codehaus.groovy.GroovyBugError;
import org.codehaus.groovy.ast.ASTNode;
import org.codehaus.groovy.ast.ClassCodeVisitorSupport;
import org.codehaus.groovy.ast.ClassHelper;
import org.codehaus.groovy.ast.ClassNode;
import org.codehaus.groovy.ast.FieldNode;
import org.codehaus.groovy.ast.MethodNode;
import org.codehaus.groovy.ast.Parameter;
import org.codehaus.groovy.ast.VariableScope;
import org.codehaus.groovy.ast.expr.ArgumentListExpression;
import org.codehaus.groovy.ast.expr.ConstantExpression;
import org.codehaus.groovy.ast.expr.Expression;
import org.codehaus.groovy.ast.expr.MethodCallExpression;
import org.codehaus.groovy.ast.stmt.BlockStatement;
import org.codehaus.groovy.ast.stmt.EmptyStatement;
import org.codehaus.groovy.ast.stmt.ExpressionStatement;
import org.codehaus.groovy.ast.stmt.Statement;
import org.codehaus.groovy.classgen.GeneratorContext;
import org.codehaus.groovy.control.CompilePhase;
import org.codehaus.groovy.control.MultipleCompilationErrorsException;
import org.codehaus.groovy.control.SourceUnit;
import org.codehaus.groovy.control.customizers.CompilationCustomizer;
import org.codehaus.groovy.control.messages.SyntaxErrorMessage;
import org.codehaus.groovy.syntax.SyntaxException;

/**
 * {@code include('lib/common.groovy')}: a station script loads a library script, relative to the
 * including file. Each library compiles as a class of its own, under its own name, so that its
 * stack frames and its errors (static type checking included) carry its file and lines; the
 * including script gets, at compile time, one field holding an instance of it and one method per
 * function the library defines, calling it, the accessors of its top-level variables among them
 * ({@link LibraryVariables}). So the library's functions are checked where they are called like the
 * script's own, its variables read and written as the script's own, the library's top-level
 * statements (settings, sources) run where the include stands, and a library may include others (a
 * cycle is an error at the include that closes it).
 */
final class Includes extends CompilationCustomizer {
    /**
     * Marks an include that failed because the library had errors: those are reported, not this.
     */
    static final String FAILED_LIBRARY = "(the included file has errors)";

    private static final String DELEGATE = "groovecast.include.delegate";

    /** How the compile units of included files are named. */
    private static final String LIBRARY_PREFIX = "station_include";

    /** Whether the compile unit {@code unitName} is an included file. */
    static boolean isLibrary(String unitName) {
        return unitName != null && unitName.startsWith(LIBRARY_PREFIX);
    }

    private final ScriptFiles files;
    private final Consumer<Path> reading;
    private final Map<String, Path> units = new HashMap<>();
    private final Map<Path, Class<? extends StationScript>> compiled = new HashMap<>();
    private final Deque<Path> stack = new ArrayDeque<>();
    private final List<ScriptError> libraryErrors = new ArrayList<>();
    private GroovyClassLoader loader;
    private int serial;

    /**
     * @param reading told of every file an include names, also one that cannot be read (so that it
     *     is watched)
     */
    Includes(ScriptFiles files, Consumer<Path> reading) {
        // After names are resolved (a script's own method signatures compare with a library's),
        // before type checking.
        super(CompilePhase.SEMANTIC_ANALYSIS);
        this.files = files;
        this.reading = reading;
    }

    void loader(GroovyClassLoader loader) {
        this.loader = loader;
    }

    /**
     * The errors of included files, in the order met; a failed include reports these rather than
     * {@link #FAILED_LIBRARY}.
     */
    List<ScriptError> libraryErrors() {
        return libraryErrors;
    }

    /**
     * Compiles {@code text}, the file {@code path}, under {@code compiledName}, with what it
     * includes.
     */
    Class<? extends StationScript> compile(String compiledName, String text, Path path) {
        units.put(compiledName, path);
        stack.addLast(path);
        try {
            GroovyCodeSource source =
                    new GroovyCodeSource(text, compiledName, "/groovecast/script");
            source.setCachable(false);
            return loader.parseClass(source, false).asSubclass(StationScript.class);
        } finally {
            stack.removeLast();
        }
    }

    @Override
    public void call(SourceUnit source, GeneratorContext context, ClassNode script) {
        Path self = units.get(source.getName());
        if (self == null || !script.isScript()) return;
        MethodNode run = script.getDeclaredMethod("run", Parameter.EMPTY_ARRAY);
        if (run != null && run.getCode() instanceof BlockStatement block) {
            List<Statement> statements = block.getStatements();
            int n = 0;
            for (int i = 0; i < statements.size(); i++) {
                Statement st = statements.get(i);
                String path = includePath(st);
                if (path == null) continue;
                Class<? extends StationScript> library = library(source, st, self, path);
                statements.set(
                        i,
                        library == null
                                ? EmptyStatement.INSTANCE
                                : include(script, st, library, n++));
            }
        }
        new Misplaced(source).visitClass(script);
    }

    /**
     * The path of a top-level {@code include('...')} statement, or null if {@code st} is not one.
     */
    private static String includePath(Statement st) {
        if (!(st instanceof ExpressionStatement es)
                || !(es.getExpression() instanceof MethodCallExpression call)) return null;
        if (!call.isImplicitThis() || !"include".equals(call.getMethodAsString())) return null;
        if (!(call.getArguments() instanceof ArgumentListExpression args))
            return null; // named arguments
        List<Expression> a = args.getExpressions();
        return a.size() == 1
                        && a.getFirst() instanceof ConstantExpression c
                        && c.getValue() instanceof String p
                ? p
                : null;
    }

    /**
     * The library {@code path} names, compiled (once per file and compile); null after reporting
     * why not.
     */
    private Class<? extends StationScript> library(
            SourceUnit source, Statement st, Path self, String path) {
        Path base = self.toAbsolutePath().getParent();
        Path target =
                (base == null ? Path.of(path) : base.resolve(path)).toAbsolutePath().normalize();
        reading.accept(target);
        if (stack.contains(target)) {
            List<String> chain = new ArrayList<>();
            boolean in = false;
            for (Path p : stack) {
                in |= p.equals(target);
                if (in) chain.add(display(p));
            }
            chain.add(display(target));
            error(
                    source,
                    st,
                    "include cycle: "
                            + String.join(" -> ", chain)
                            + "; a file cannot include itself, even through others");
            return null;
        }
        Class<? extends StationScript> known = compiled.get(target);
        if (known != null) return known;
        String text;
        try {
            text =
                    ScriptCompiler.withoutByteOrderMark(
                            Files.readString(target, StandardCharsets.UTF_8));
        } catch (NoSuchFileException e) {
            error(source, st, "include(): no file " + target);
            return null;
        } catch (IOException e) {
            error(source, st, "include(): cannot read " + target + ": " + e.getMessage());
            return null;
        }
        String display = display(target);
        String name =
                LIBRARY_PREFIX
                        + (++serial)
                        + "_"
                        + target.getFileName()
                                .toString()
                                .replaceFirst("\\.groovy$", "")
                                .replaceAll("[^A-Za-z0-9_]", "_")
                        + ".groovy";
        files.add(name, display, target);
        try {
            Class<? extends StationScript> c = compile(name, text, target);
            compiled.put(target, c);
            return c;
        } catch (MultipleCompilationErrorsException e) {
            libraryErrors.addAll(ScriptCompiler.errors(files, display, e));
            error(source, st, FAILED_LIBRARY);
            return null;
        } catch (GroovyBugError | RuntimeException e) {
            libraryErrors.add(CompilerFailure.located(files, display, e));
            error(source, st, FAILED_LIBRARY);
            return null;
        }
    }

    /**
     * How messages name {@code file}: relative to the station script's directory ({@code
     * lib/common.groovy}), as the script's author wrote the include, whichever file included it.
     */
    private String display(Path file) {
        Path base = stack.getFirst().toAbsolutePath().getParent();
        if (base == null) return file.toString();
        try {
            return base.relativize(file).toString();
        } catch (IllegalArgumentException e) { // another root: no relative path leads there
            return file.toString();
        }
    }

    /**
     * The include's replacement: a field holding the library's instance, a method per library
     * function, and the statement running the library's top level where the include stood.
     */
    private static Statement include(
            ClassNode script, Statement st, Class<? extends StationScript> library, int n) {
        ClassNode type = ClassHelper.make(library);
        FieldNode field =
                script.addField(
                        "$include" + n,
                        Modifier.PRIVATE | Modifier.FINAL,
                        type,
                        castX(type, callThisX("included", args(ctorX(type)))));
        field.setSourcePosition(st);
        for (Method m : library.getDeclaredMethods()) {
            if (isFunction(m)) delegate(script, st, field, type, m);
        }
        Statement run = stmt(callX(fieldX(field), "run"));
        run.setSourcePosition(st);
        return run;
    }

    /**
     * A function the library's author wrote, as opposed to what Groovy generates or the script base
     * class has.
     */
    private static boolean isFunction(Method m) {
        if (m.isSynthetic() || m.isBridge() || !Modifier.isPublic(m.getModifiers())) return false;
        String name = m.getName();
        if (name.equals("run") || name.equals("main") || name.contains("$")) return false;
        try {
            StationScript.class.getMethod(name, m.getParameterTypes());
            return false; // getProperty, invokeMethod... overridden by the library
        } catch (NoSuchMethodException e) {
            return true;
        }
    }

    /**
     * Adds to {@code script} a method with {@code m}'s signature calling {@code m}. The script's
     * own method of that signature wins; between libraries the later include wins (the last
     * definition counts, as in Liquidsoap).
     */
    private static void delegate(
            ClassNode script, ASTNode at, FieldNode field, ClassNode type, Method m) {
        Class<?>[] types = m.getParameterTypes();
        Parameter[] params = new Parameter[types.length];
        List<Expression> values = new ArrayList<>();
        for (int i = 0; i < types.length; i++) {
            params[i] = param(plain(types[i]), "arg" + i);
            values.add(varX(params[i]));
        }
        MethodNode existing = script.getDeclaredMethod(m.getName(), params);
        if (existing != null && existing.getNodeMetaData(DELEGATE) == null) return;
        if (existing != null) script.removeMethod(existing);
        boolean isStatic = Modifier.isStatic(m.getModifiers());
        Expression call = callX(isStatic ? classX(type) : fieldX(field), m.getName(), args(values));
        Statement body = m.getReturnType() == void.class ? stmt(call) : returnS(call);
        MethodNode d =
                script.addMethod(
                        m.getName(),
                        Modifier.PUBLIC | (isStatic ? Modifier.STATIC : 0),
                        plain(m.getReturnType()),
                        params,
                        ClassNode.EMPTY_ARRAY,
                        body);
        d.setVariableScope(new VariableScope()); // added after the scopes were computed
        d.setSourcePosition(at);
        d.putNodeMetaData(DELEGATE, Boolean.TRUE);
    }

    /**
     * A fresh node for a JDK type: ClassHelper's cached node for a generic type ({@code Map<K, V>})
     * may not stand in a generated signature (the compiler then fails on a library function taking
     * a Map).
     */
    private static ClassNode plain(Class<?> type) {
        return ClassHelper.make(type).getPlainNodeReference();
    }

    private static void error(SourceUnit source, ASTNode at, String message) {
        source.getErrorCollector()
                .addErrorAndContinue(
                        new SyntaxErrorMessage(
                                new SyntaxException(
                                        message, at.getLineNumber(), at.getColumnNumber()),
                                source));
    }

    /** Reports an {@code include(...)} that is not a top-level statement with a constant path. */
    private static final class Misplaced extends ClassCodeVisitorSupport {
        private final SourceUnit source;

        Misplaced(SourceUnit source) {
            this.source = source;
        }

        @Override
        protected SourceUnit getSourceUnit() {
            return source;
        }

        @Override
        public void visitMethodCallExpression(MethodCallExpression call) {
            if (call.isImplicitThis() && "include".equals(call.getMethodAsString())) {
                error(
                        source,
                        call,
                        "include() must stand alone at the top level of the script, with the path as a "
                                + "plain string: include('lib/common.groovy')");
            }
            super.visitMethodCallExpression(call);
        }
    }
}
