package org.groovecast.host.script;

import org.groovecast.api.OperatorSpec;
import org.groovecast.api.Output;
import org.groovecast.api.RequestResolver;
import org.groovecast.api.ScriptException;
import org.groovecast.api.Source;
import org.groovecast.api.ValueType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a running script calls into: operator calls are bound, built and recorded in the station's
 * graph here, and any mistake comes back as a {@link ScriptError} with the script line.
 */
public final class ScriptRuntime {
    /** The runtime whose script is loading on this thread; method-style operator calls need it. */
    static final ScopedValue<ScriptRuntime> CURRENT = ScopedValue.newInstance();

    private static final Logger log = LoggerFactory.getLogger(ScriptRuntime.class);

    private final ScriptFiles files;
    private final ScriptFunctions functions;
    private final ScriptSettings settings;
    private final ScriptGraph graph;
    private final RequestResolver requests;

    public ScriptRuntime(
            ScriptFiles files,
            ScriptFunctions functions,
            ScriptSettings settings,
            ScriptGraph graph,
            RequestResolver requests) {
        this.files = files;
        this.functions = functions;
        this.settings = settings;
        this.graph = graph;
        this.requests = requests;
    }

    /**
     * What refuses an operator that may wait ({@link OperatorSpec#blocking()}) on a thread that
     * must not: the station gives its guard; the default lets every call through (offline tools).
     */
    private java.util.function.Consumer<String> blockingGuard = call -> {};

    /** Sets the guard for blocking operators; {@code guard} throws a ScriptException to refuse. */
    public ScriptRuntime guardBlocking(java.util.function.Consumer<String> guard) {
        this.blockingGuard = guard;
        return this;
    }

    public ScriptFunctions functions() {
        return functions;
    }

    public ScriptSettings settings() {
        return settings;
    }

    public String fileName() {
        return files.main();
    }

    /** The files of the script, for locating what its code throws. */
    ScriptFiles files() {
        return files;
    }

    /**
     * Runs the script body with this runtime current, turning any failure into a located error: an
     * exception, or an error the script's own code raised ({@code assert}, {@code throw new
     * Error(...)}, a stack overflow); only the JVM running out of memory goes through as it is.
     */
    public void run(StationScript script) {
        script.attach(this);
        try {
            ScopedValue.where(CURRENT, this).call(script::run);
        } catch (ScriptError e) {
            throw e;
        } catch (RuntimeException e) {
            log.debug("script failed", e);
            throw located(e);
        } catch (OutOfMemoryError e) {
            throw e;
        } catch (Throwable e) {
            log.debug("script failed", e);
            throw located(new ScriptException(ScriptFailure.what(e, null), e));
        }
    }

    /**
     * Runs a front end's evaluation of its script with this runtime current: a script function the
     * engine calls meanwhile (an operator calling it as it is made) then fails the load rather than
     * being logged and passed over (see {@link ClosureFunction}).
     */
    public void runCurrent(Runnable evaluation) {
        ScopedValue.where(CURRENT, this).run(evaluation);
    }

    /** Calls the operator {@code name}; {@code receiver} is the source of a method-style call. */
    public Object call(String name, Source receiver, Object[] args) {
        return call(name, receiver, args, null);
    }

    /**
     * The same, made at {@code at} in the script: a front end that knows where it is (the
     * Liquidsoap one, which has no frames of the script on the stack) says so; null to find the
     * line on the stack.
     */
    public Object call(String name, Source receiver, Object[] args, ScriptLine at) {
        OperatorSpec spec =
                functions
                        .find(name)
                        .orElseThrow(
                                () ->
                                        located(
                                                new ScriptException(
                                                        "unknown operator "
                                                                + name
                                                                + "()"
                                                                + functions
                                                                        .closest(name)
                                                                        .map(
                                                                                n ->
                                                                                        "; did you mean "
                                                                                                + n
                                                                                                + "()?")
                                                                        .orElse(""))));
        if (graph.running()
                && (spec.returns() == ValueType.OUTPUT || spec.name().startsWith("output."))) {
            throw located(new ScriptException(outputWhileRunning(name)));
        }
        try {
            if (spec.blocking()) blockingGuard.accept(name + "()");
            BoundArguments bound = BoundArguments.bind(spec, receiver, args, requests);
            Object result = spec.factory().create(bound);
            if (result instanceof Output && graph.running()) {
                throw located(new ScriptException(outputWhileRunning(name)));
            }
            if (result instanceof Source s) {
                if (bound.id() != null) s.setId(bound.id());
                SourceSerials.number(s);
                graph.add(s, at != null ? at : currentLine());
            }
            return result;
        } catch (ScriptError e) {
            throw e;
        } catch (ScriptException | IllegalArgumentException | IllegalStateException e) {
            throw located(e);
        }
    }

    /**
     * Why an output is not made once the station runs. Outputs are the station's fixed shape: each
     * is opened and given its clock before the clocks start, so one made in a callback would never
     * play; starting it there would mean opening files and sockets, and planning clocks, from a
     * callback on a running clock. A reload changes the outputs.
     */
    private static String outputWhileRunning(String name) {
        return name
                + "(): outputs are made when the script loads, not in a callback once the station"
                + " runs (it would never start); make it at the top level and choose what it plays"
                + " with fallback() or switchOn()";
    }

    /**
     * {@code e}'s message prefixed with the script file and line running now (or found in its
     * trace).
     */
    public ScriptError located(RuntimeException e) {
        if (e instanceof ScriptError se) return se;
        ScriptLine at =
                ScriptLocation.current(files)
                        .or(() -> ScriptLocation.in(e, files))
                        .orElse(new ScriptLine(files.main(), 0));
        String message =
                e instanceof ScriptException || e instanceof IllegalArgumentException
                        ? e.getMessage()
                        : ScriptFailure.what(e, null);
        return new ScriptError(at.file(), at.line(), message, e);
    }

    private ScriptLine currentLine() {
        return ScriptLocation.current(files).orElse(new ScriptLine(files.main(), 0));
    }

    /** Groovy hands method arguments as an array, a single value, or null. */
    static Object[] asArray(Object args) {
        if (args == null) return new Object[0];
        if (args instanceof Object[] a) return a;
        return new Object[] {args};
    }
}
