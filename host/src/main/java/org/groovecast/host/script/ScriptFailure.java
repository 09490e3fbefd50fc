package org.groovecast.host.script;

import groovy.lang.Closure;
import groovy.lang.MissingMethodException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.lang.reflect.UndeclaredThrowableException;
import java.util.ArrayList;
import java.util.List;
import org.codehaus.groovy.runtime.ConversionHandler;
import org.codehaus.groovy.runtime.InvokerInvocationException;
import org.groovecast.api.ScriptException;

/**
 * How a failure of the script's own code, called by the engine (a callback, a predicate, a
 * handler), reads in the log: {@code radio.groovy:12: assertion failed: no title}, on one line,
 * never a stack trace. The line is the innermost one of the script in the failure's stack trace; a
 * failure with none there (a function called with more arguments than it takes) is put where the
 * function was handed over, when that is known.
 */
public final class ScriptFailure {
    private ScriptFailure() {}

    /**
     * {@code failure} of {@code callback}: a script closure, or what Groovy made of one (a {@code
     * Consumer} the closure was coerced to), or a {@link ClosureFunction}.
     */
    public static String describe(Object callback, Throwable failure) {
        return describe(closureOf(callback), failure, null);
    }

    static String describe(Closure<?> closure, Throwable failure, ScriptLine handedOver) {
        Throwable t = unwrap(failure);
        if (t instanceof ScriptError e) return e.getMessage(); // located already
        ScriptFiles files = closure == null ? null : filesOf(closure);
        ScriptLine at = files == null ? null : ScriptLocation.in(t, files).orElse(null);
        if (at == null) at = handedOver;
        if (at == null && files != null) at = new ScriptLine(files.main(), 0);
        String what = what(t, closure);
        return at == null ? what : at + ": " + what;
    }

    /**
     * How a log names a failure of the script's code that ran off the script's thread (a {@code
     * thread.run} function, a handler): {@code radio.groovy:12: IllegalStateException: ...}, at the
     * innermost line of {@code files} in its trace, or as it is when it is already a located error
     * or no script line is in it.
     */
    public static String located(Throwable e, ScriptFiles files) {
        Throwable t = unwrap(e);
        if (t instanceof ScriptError se) return se.getMessage();
        return ScriptLocation.in(t, files)
                .map(at -> new ScriptError(at.file(), at.line(), what(t, null)).getMessage())
                .orElseGet(() -> what(t, null));
    }

    /**
     * What went wrong, as a station engineer reads it, on one line (a located error is one line;
     * Groovy's power assertions draw their values over several).
     */
    static String what(Throwable failure, Closure<?> closure) {
        Throwable t = unwrap(failure);
        if (t instanceof StackOverflowError)
            return "stack overflow (a function that calls itself without end?)";
        if (t instanceof AssertionError) {
            String m = t.getMessage();
            if (m == null || m.isBlank()) return "assertion failed";
            // Groovy's power assert draws the expression with its values below it: its first line
            // is the assertion's text.
            if (m.strip().startsWith("assert "))
                return "assertion failed: " + firstLine(m.strip().lines().findFirst().orElse(""));
            // {@code assert x, 'message'}: the message is the author's, the line says which
            // assert; the expression Groovy appends is its compiled form, hard to read.
            int expression = m.indexOf(". Expression: ");
            return "assertion failed: "
                    + firstLine(expression < 0 ? m : m.substring(0, expression));
        }
        if (t instanceof MissingMethodException m && isArityMismatch(m, closure))
            return "the function takes "
                    + parameters(closure.getMaximumNumberOfParameters())
                    + " but is called with "
                    + arguments(m.getArguments());
        if (t instanceof ScriptException || t instanceof IllegalArgumentException)
            return firstLine(t.getMessage());
        String m = t.getMessage();
        String name = t.getClass().getSimpleName();
        return firstLine(m == null || m.isBlank() ? name : name + ": " + m);
    }

    /** The first line of {@code text}, with "..." when more follows. */
    static String firstLine(String text) {
        String t = text == null ? "" : text.strip();
        int nl = t.indexOf('\n');
        return nl < 0 ? t : t.substring(0, nl).strip() + " ...";
    }

    /**
     * The closure was called with arguments none of its forms takes ({@code onSelect { -> }} given
     * the source): Groovy reports it as a missing {@code doCall} of the closure's own class.
     */
    private static boolean isArityMismatch(MissingMethodException m, Closure<?> closure) {
        return closure != null
                && m.getType() == closure.getClass()
                && ("doCall".equals(m.getMethod()) || "call".equals(m.getMethod()));
    }

    private static String parameters(int n) {
        return n == 0 ? "no arguments" : n == 1 ? "1 argument" : n + " arguments";
    }

    private static String arguments(Object[] args) {
        if (args == null || args.length == 0) return "none";
        List<String> each = new ArrayList<>(args.length);
        for (Object a : args) each.add(Values.describe(a));
        return args.length + " (" + String.join(", ", each) + ")";
    }

    /** The failure itself, out of the wrappers reflection and Groovy's proxies put around it. */
    static Throwable unwrap(Throwable t) {
        while ((t instanceof UndeclaredThrowableException
                        || t instanceof InvocationTargetException
                        || t instanceof InvokerInvocationException)
                && t.getCause() != null) t = t.getCause();
        return t;
    }

    /** The script closure behind {@code callback}, or null when it is none. */
    static Closure<?> closureOf(Object callback) {
        if (callback instanceof Closure<?> c) return c;
        if (callback instanceof ClosureFunction f) return f.closure();
        if (callback != null
                && Proxy.isProxyClass(callback.getClass())
                && Proxy.getInvocationHandler(callback) instanceof ConversionHandler h
                && h.getDelegate() instanceof Closure<?> c) return c;
        return null;
    }

    /** The files of the station whose script wrote {@code closure}, or null. */
    static ScriptFiles filesOf(Closure<?> closure) {
        Object self = closure.getThisObject();
        return self instanceof StationScript s ? s.files() : null;
    }
}
