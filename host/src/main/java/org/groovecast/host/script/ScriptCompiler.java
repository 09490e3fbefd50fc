package org.groovecast.host.script;

import groovy.lang.GroovyClassLoader;
import groovy.lang.GroovySystem;
import groovy.transform.CompileStatic;
import java.beans.Introspector;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.codehaus.groovy.GroovyBugError;
import org.codehaus.groovy.control.CompilerConfiguration;
import org.codehaus.groovy.control.MultipleCompilationErrorsException;
import org.codehaus.groovy.control.customizers.ASTTransformationCustomizer;
import org.codehaus.groovy.control.messages.ExceptionMessage;
import org.codehaus.groovy.control.messages.Message;
import org.codehaus.groovy.control.messages.SyntaxErrorMessage;
import org.codehaus.groovy.syntax.SyntaxException;

/**
 * Compiles station scripts, and the files they include, with static type checking, extended by
 * {@link OperatorChecker} so that operator calls are checked against the names plugins provide.
 * Every problem comes back as {@code file:line: message}, in the file where it is.
 */
public final class ScriptCompiler {
    private static final String STC_PREFIX = "[Static type checking] - ";

    private ScriptCompiler() {}

    /**
     * A compiled script, ready to run once per station; {@code files} are the script and what it
     * includes.
     */
    public record Compiled(
            String fileName,
            Class<? extends StationScript> type,
            GroovyClassLoader loader,
            ScriptFiles files) {
        public StationScript instantiate() {
            try {
                return type.getDeclaredConstructor().newInstance();
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot instantiate " + fileName, e);
            }
        }

        /**
         * The script's station is gone: forgets what the JDK and Groovy cache per class of its
         * classes. The java.beans introspector (which Groovy's meta classes use) keeps them softly,
         * that is until memory runs short, so without this every reload left its script's classes,
         * class loader and compiler state behind, a megabyte or two each time.
         */
        public void unload() {
            for (Class<?> c : loader.getLoadedClasses()) {
                Introspector.flushFromCaches(c);
                GroovySystem.getMetaClassRegistry().removeMetaClass(c);
            }
            loader.clearCache();
            try {
                loader.close();
            } catch (IOException e) {
                // nothing was opened from files: the script came as text
            }
        }
    }

    /**
     * Compiles the script {@code file}, checking its calls against {@code functions} and its {@code
     * settings.*} against {@code settings}; {@code reading} is told of each file the script
     * includes (also of one that turns out missing or broken), so that a watcher can follow them
     * all.
     */
    public static Compiled compile(
            Path file, ScriptFunctions functions, ScriptSettings settings, Consumer<Path> reading) {
        String name = file.getFileName().toString();
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ScriptErrors(
                    List.of(new ScriptError(name, 0, "cannot read script: " + e.getMessage())));
        }
        return compile(name, text, file.toAbsolutePath().normalize(), functions, settings, reading);
    }

    /**
     * Compiles {@code text} as if read from a file named {@code fileName} in the working directory.
     */
    public static Compiled compile(
            String fileName, String text, ScriptFunctions functions, ScriptSettings settings) {
        return compile(fileName, text, null, functions, settings, p -> {});
    }

    private static Compiled compile(
            String fileName,
            String text,
            Path file,
            ScriptFunctions functions,
            ScriptSettings settings,
            Consumer<Path> reading) {
        String source = withoutByteOrderMark(text);
        SourceMetaClasses.install();
        ScriptFiles files = new ScriptFiles(fileName);
        Includes includes = new Includes(files, reading);
        CompilerConfiguration config = new CompilerConfiguration();
        config.setScriptBaseClass(StationScript.class.getName());
        config.addCompilationCustomizers(
                new LibraryVariables(Includes::isLibrary),
                new FieldInitializers(),
                includes,
                new ASTTransformationCustomizer(
                        Map.of("extensions", List.of(OperatorChecker.class.getName())),
                        CompileStatic.class));
        GroovyClassLoader loader =
                new GroovyClassLoader(ScriptCompiler.class.getClassLoader(), config);
        includes.loader(loader);
        // Named after the file (so stack frames carry its lines), with a prefix so that the class
        // name never hides a namespace: see ScriptLocation.compiledName.
        String compiledName = ScriptLocation.compiledName(fileName);
        files.add(compiledName, fileName, file);
        Path self =
                file != null
                        ? file
                        : Path.of(fileName)
                                .toAbsolutePath()
                                .normalize(); // includes resolve from its directory
        try {
            Class<? extends StationScript> type =
                    ScopedValue.where(OperatorChecker.FUNCTIONS, functions)
                            .where(OperatorChecker.STATION_SETTINGS, settings)
                            .call(() -> includes.compile(compiledName, source, self));
            return new Compiled(fileName, type, loader, files);
        } catch (MultipleCompilationErrorsException e) {
            List<ScriptError> all = new ArrayList<>(includes.libraryErrors());
            all.addAll(errors(files, fileName, e));
            throw new ScriptErrors(all);
        } catch (ScriptErrors | ScriptError e) {
            throw e;
        } catch (GroovyBugError | RuntimeException e) {
            // Groovy's compiler failing on a form this compiler does not handle yet: still one
            // located line, never a stack trace.
            throw new ScriptErrors(List.of(CompilerFailure.located(files, fileName, e)));
        } finally {
            // The loader lives as long as the station (it unloads the script's classes) and keeps
            // its configuration, whose AST transformation customizer keeps the last compilation
            // unit: the script's AST, parse tree and class bytes (130 KB of live heap for the
            // default station, per station when many run). Nothing compiles with this loader again.
            config.getCompilationCustomizers().clear();
        }
    }

    /**
     * The text without the byte-order mark some editors save UTF-8 with, which Groovy's parser
     * takes for a character of the script.
     */
    static String withoutByteOrderMark(String text) {
        return text.startsWith("\uFEFF") ? text.substring(1) : text;
    }

    /**
     * The errors of one compile, each in the file it names (its {@code fallback} when it names
     * none), leaving out the includes that failed for their file's errors, which are reported
     * themselves.
     */
    static List<ScriptError> errors(
            ScriptFiles files, String fallback, MultipleCompilationErrorsException e) {
        List<ScriptError> out = new ArrayList<>();
        for (Message m : e.getErrorCollector().getErrors()) {
            if (m instanceof SyntaxErrorMessage s) {
                SyntaxException cause = s.getCause();
                String text = cause.getOriginalMessage();
                if (text.equals(Includes.FAILED_LIBRARY)) continue;
                if (text.startsWith(STC_PREFIX)) text = text.substring(STC_PREFIX.length());
                text = CheckerMessages.reword(text.strip());
                String file = files.display(cause.getSourceLocator());
                out.add(
                        new ScriptError(
                                file != null ? file : fallback, cause.getLine(), text.strip()));
            } else if (m instanceof ExceptionMessage x) {
                out.add(new ScriptError(fallback, 0, String.valueOf(x.getCause().getMessage())));
            } else {
                StringWriter w = new StringWriter();
                m.write(new PrintWriter(w));
                out.add(new ScriptError(fallback, 0, w.toString().strip()));
            }
        }
        return CheckerMessages.withoutAftermath(out);
    }
}
