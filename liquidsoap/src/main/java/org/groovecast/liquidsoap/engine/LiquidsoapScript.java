package org.groovecast.liquidsoap.engine;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.groovecast.host.http.HttpFailure;
import org.groovecast.host.script.ScriptError;
import org.groovecast.host.script.ScriptFiles;
import org.groovecast.host.script.ScriptFrontEnd;
import org.groovecast.host.script.ScriptFunctions;
import org.groovecast.host.script.ScriptLine;
import org.groovecast.host.script.ScriptRuntime;
import org.groovecast.liquidsoap.eval.Env;
import org.groovecast.liquidsoap.eval.Errors;
import org.groovecast.liquidsoap.eval.Evaluator;
import org.groovecast.liquidsoap.eval.Halt;
import org.groovecast.liquidsoap.eval.LiqError;
import org.groovecast.liquidsoap.eval.UnknownNames;
import org.groovecast.liquidsoap.parser.ParsedScript;
import org.groovecast.liquidsoap.prelude.Library;
import org.groovecast.liquidsoap.prelude.Prelude;
import org.groovecast.liquidsoap.prelude.StandalonePlatform;
import org.groovecast.liquidsoap.syntax.EvalCheck;
import org.groovecast.liquidsoap.syntax.Span;
import org.groovecast.liquidsoap.syntax.TypeAnnotation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Liquidsoap script read and checked, and its one evaluation against a station's runtime: the
 * prelude on the engine's platform, every operator of the station's table bridged in, the script
 * evaluated with its operator calls made through the runtime (so the graph is the one a Groovy
 * script would build), its mistakes located at the script's line and column.
 */
final class LiquidsoapScript implements ScriptFrontEnd.Script {
    private static final Logger log = LoggerFactory.getLogger(LiquidsoapScript.class);

    private final String name;
    private final ParsedScript parsed;
    private final ScriptFiles files;

    /** Set by the evaluation: the script asked to run with no output ({@code force_start}). */
    private volatile boolean forceStart;

    /** The types the check inferred for the untyped {@code let json.parse} of the script. */
    private volatile Map<Span, TypeAnnotation> jsonTypes = Map.of();

    /** Where the script's evaluation is, per thread, while it calls an operator. */
    private final ThreadLocal<Span> current = new ThreadLocal<>();

    LiquidsoapScript(String name, ParsedScript parsed, ScriptFiles files) {
        this.name = name;
        this.parsed = parsed;
        this.files = files;
    }

    void jsonTypes(Map<Span, TypeAnnotation> types) {
        this.jsonTypes = Map.copyOf(types);
    }

    /** The check of what the script's {@code let eval} evaluate, in the scope it left. */
    private volatile EvalCheck evalCheck = EvalCheck.NONE;

    void evalCheck(EvalCheck check) {
        this.evalCheck = check;
    }

    @Override
    public ScriptFiles files() {
        return files;
    }

    @Override
    public Optional<ScriptLine> currentLine() {
        Span at = current.get();
        return at == null ? Optional.empty() : Optional.of(Located.line(at));
    }

    @Override
    public boolean runsWithoutOutputs() {
        return forceStart;
    }

    /** The platform of the evaluation, whose stop tasks run when the station unloads. */
    private volatile EnginePlatform platform;

    @Override
    public void unload() {
        EnginePlatform p = platform;
        if (p != null) p.stopped();
    }

    /** The names the script uses that nothing defines, against the station's functions. */
    List<LiqError> unknownNames(ScriptFunctions functions) {
        Evaluator ev = new Evaluator(checkHooks(functions));
        Library lib = library(functions);
        return UnknownNames.in(parsed.program(), Prelude.globals(lib, ev), ev);
    }

    /** The names in scope with their types, as a station would have them (for the checks). */
    Library library(ScriptFunctions functions) {
        return library(name, functions);
    }

    /** The same for a script named {@code name}. */
    static Library library(String name, ScriptFunctions functions) {
        StandalonePlatform quiet = new StandalonePlatform(System.out, System.err);
        Library lib = Prelude.library(quiet);
        Encoders encoders = new Encoders(noMaker(functions));
        lib.encoders(encoders::available);
        EngineValues values = new EngineValues(name, encoders);
        OperatorBridge bridge = new OperatorBridge(values, (op, args, at) -> null, note -> {});
        bridge.register(lib, functions, Mappings.standard(values));
        EngineFunctions.register(lib, new SourceFields(values, () -> 44_100, encoders));
        DerivedOperators.register(lib);
        HarborHttp.register(lib, values, (op, args, at) -> null);
        AutocueFunctions.register(lib, quiet, (op, args, at) -> null);
        return lib;
    }

    private SourceFields checkHooks(ScriptFunctions functions) {
        Encoders encoders = new Encoders(noMaker(functions));
        return new SourceFields(new EngineValues(name, encoders), () -> 44_100, encoders);
    }

    private static Encoders.Maker noMaker(ScriptFunctions functions) {
        return new Encoders.Maker() {
            @Override
            public Object make(String operator, Map<String, Object> named) {
                return null;
            }

            @Override
            public boolean has(String operator) {
                return functions.find(operator).isPresent();
            }

            @Override
            public void note(String message) {}
        };
    }

    /**
     * The evaluation's stack: a script's recursion goes as deep as Liquidsoap's would, and a
     * runaway one ends in a located "stack overflow" rather than the JVM's error.
     */
    private static final long STACK_BYTES = 64L << 20;

    @Override
    public void run(ScriptRuntime runtime) {
        Throwable[] failure = {null};
        Runnable body =
                () -> {
                    try {
                        evaluate(runtime);
                    } catch (RuntimeException | Error e) {
                        failure[0] = e;
                    }
                };
        Thread t =
                new Thread(null, () -> runtime.runCurrent(body), "liquidsoap " + name, STACK_BYTES);
        t.start();
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            t.interrupt();
            throw new ScriptError(name, 0, "interrupted while the script loaded");
        }
        if (failure[0] instanceof RuntimeException r) throw r;
        if (failure[0] instanceof StackOverflowError) {
            throw new ScriptError(
                    name, 0, "stack overflow (a function that calls itself without end?)");
        }
        if (failure[0] instanceof Error e) throw e;
    }

    private void evaluate(ScriptRuntime runtime) {
        OperatorBridge.Caller caller = (op, args, at) -> call(runtime, op, args, at);
        Encoders encoders =
                new Encoders(
                        new Encoders.Maker() {
                            @Override
                            public Object make(String operator, Map<String, Object> named) {
                                return caller.call(operator, new Object[] {named}, current.get());
                            }

                            @Override
                            public boolean has(String operator) {
                                return runtime.functions().find(operator).isPresent();
                            }

                            @Override
                            public void note(String message) {
                                log.info("{}: {}", name, message);
                            }
                        });
        EngineValues values = new EngineValues(name, encoders);
        EnginePlatform platform = new EnginePlatform(runtime, values, caller);
        this.platform = platform;
        Library lib = Prelude.library(platform);
        lib.encoders(encoders::available);
        new OperatorBridge(values, caller, note -> log.info("{}: {}", name, note))
                .register(lib, runtime.functions(), Mappings.standard(values));
        SourceFields fields = new SourceFields(values, () -> samplerate(runtime), encoders);
        EngineFunctions.register(lib, fields);
        DerivedOperators.register(lib);
        HarborHttp.register(lib, values, caller);
        org.groovecast.liquidsoap.prelude.InteractiveFiles.register(lib, values::interactives);
        AutocueFunctions.register(lib, platform, caller);
        Evaluator ev = new Evaluator(fields, jsonTypes, evalCheck);
        try {
            try {
                ev.run(parsed.program(), Env.of(Prelude.globals(lib, ev)));
            } finally {
                forceStart = platform.forceStart();
            }
            platform.finish();
        } catch (LiqError e) {
            throw Located.of(e, name);
        } catch (Halt h) {
            throw new ScriptError(
                    name, 0, "the script called exit(" + h.code() + ") while it loaded");
        } catch (StackOverflowError e) {
            Span at = current.get();
            throw Located.error(
                    at, name, "stack overflow (a function that calls itself without end?)", null);
        } catch (ScriptError e) {
            throw e;
        } catch (RuntimeException e) {
            // A fault of the front end itself: still one line for the author, the trace in the
            // debug log.
            log.debug("{} failed", name, e);
            throw Located.error(current.get(), name, "the script could not run: " + e, null);
        }
    }

    private static double samplerate(ScriptRuntime runtime) {
        Object v = runtime.settings().get("audio.samplerate");
        return v instanceof Number n ? n.doubleValue() : 44_100;
    }

    /**
     * The engine's message as a Liquidsoap author reads it: its hints name Groovy's syntax for
     * named arguments ({@code fallible: true}), a Liquidsoap script writes {@code fallible=true}.
     */
    static String inLiquidsoap(String message) {
        return message.replaceAll("\\b([a-z][A-Za-z]*): (true|false)\\b", "$1=$2");
    }

    /**
     * An operator call through the runtime, the script's place known meanwhile; its errors located
     * here.
     */
    private Object call(ScriptRuntime runtime, String op, Object[] args, Span at) {
        Span before = current.get();
        if (at != null) current.set(at);
        try {
            return runtime.call(op, null, args, at == null ? null : Located.line(at));
        } catch (ScriptError e) {
            // answered by the operator's mapping as Liquidsoap's http.* answer it (OperatorBridge)
            if (e.getCause() instanceof HttpFailure f) throw f;
            if (e.column() >= 0) {
                // A function of the script failed inside the operator: its own place says more.
                Span inner = new Span(e.file(), e.line(), e.column(), e.line(), e.column());
                throw Errors.at(inner, "invalid", e.detail());
            }
            throw Errors.at(at, "invalid", inLiquidsoap(e.detail()));
        } finally {
            current.set(before);
        }
    }
}
