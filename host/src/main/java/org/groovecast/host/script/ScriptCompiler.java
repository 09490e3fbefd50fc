package org.groovecast.host.script;

import groovy.lang.GroovyClassLoader;
import groovy.lang.GroovyCodeSource;
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
import org.codehaus.groovy.control.CompilerConfiguration;
import org.codehaus.groovy.control.MultipleCompilationErrorsException;
import org.codehaus.groovy.control.customizers.ASTTransformationCustomizer;
import org.codehaus.groovy.control.messages.ExceptionMessage;
import org.codehaus.groovy.control.messages.Message;
import org.codehaus.groovy.control.messages.SyntaxErrorMessage;
import org.codehaus.groovy.syntax.SyntaxException;

/**
 * Compiles station scripts with static type checking, extended by {@link OperatorChecker} so
 * that operator calls are checked against the names plugins provide. Every problem comes back
 * as {@code file:line: message}.
 */
public final class ScriptCompiler {
    private static final String STC_PREFIX = "[Static type checking] - ";

    private ScriptCompiler() {
    }

    /** A compiled script, ready to run once per station. */
    public record Compiled(String fileName, Class<? extends StationScript> type, GroovyClassLoader loader) {
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

    public static Compiled compile(Path file, ScriptFunctions functions) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ScriptErrors(List.of(new ScriptError(file.getFileName().toString(), 0, "cannot read script: " + e.getMessage())));
        }
        return compile(file.getFileName().toString(), text, functions);
    }

    /** Compiles {@code text} as if read from a file named {@code fileName}. */
    public static Compiled compile(String fileName, String text, ScriptFunctions functions) {
        SourceMetaClasses.install();
        CompilerConfiguration config = new CompilerConfiguration();
        config.setScriptBaseClass(StationScript.class.getName());
        config.addCompilationCustomizers(new ASTTransformationCustomizer(
                Map.of("extensions", List.of(OperatorChecker.class.getName())), CompileStatic.class));
        GroovyClassLoader loader = new GroovyClassLoader(ScriptCompiler.class.getClassLoader(), config);
        // Named after the file (so stack frames carry its lines), with a prefix so that the class
        // name never hides a namespace: see ScriptLocation.compiledName.
        GroovyCodeSource source = new GroovyCodeSource(text, ScriptLocation.compiledName(fileName), "/groovecast/script");
        source.setCachable(false);
        try {
            Class<?> type = ScopedValue.where(OperatorChecker.FUNCTIONS, functions)
                    .call(() -> loader.parseClass(source, false));
            return new Compiled(fileName, type.asSubclass(StationScript.class), loader);
        } catch (MultipleCompilationErrorsException e) {
            throw new ScriptErrors(errors(fileName, e));
        }
    }

    private static List<ScriptError> errors(String fileName, MultipleCompilationErrorsException e) {
        List<ScriptError> out = new ArrayList<>();
        for (Message m : e.getErrorCollector().getErrors()) {
            if (m instanceof SyntaxErrorMessage s) {
                SyntaxException cause = s.getCause();
                String text = cause.getOriginalMessage();
                if (text.startsWith(STC_PREFIX)) text = text.substring(STC_PREFIX.length());
                out.add(new ScriptError(fileName, cause.getLine(), text.strip()));
            } else if (m instanceof ExceptionMessage x) {
                out.add(new ScriptError(fileName, 0, String.valueOf(x.getCause().getMessage())));
            } else {
                StringWriter w = new StringWriter();
                m.write(new PrintWriter(w));
                out.add(new ScriptError(fileName, 0, w.toString().strip()));
            }
        }
        return out;
    }
}
