package org.groovecast.liquidsoap.prelude;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.groovecast.liquidsoap.eval.Env;
import org.groovecast.liquidsoap.eval.Evaluator;
import org.groovecast.liquidsoap.eval.Halt;
import org.groovecast.liquidsoap.eval.Hooks;
import org.groovecast.liquidsoap.eval.LiqError;
import org.groovecast.liquidsoap.parser.Scripts;
import org.groovecast.liquidsoap.syntax.EvalCheck;
import org.groovecast.liquidsoap.syntax.Expr;
import org.groovecast.liquidsoap.syntax.SyntaxError;

/**
 * Runs a Liquidsoap script without an engine, the way Liquidsoap's test runner counts: the files
 * type-checked as one script (by the type checker found, {@link TypeCheck}), then evaluated in
 * order (a prefix such as {@code tests/test.liq} first, in the same scope), then the queued {@code
 * thread.run} functions until the script calls {@code shutdown()} or {@code exit(n)}. The exit code
 * is 0 for a shutdown, n for {@code exit(n)}, 1 for an error the script did not catch, 2 for a
 * script still running at the deadline.
 */
public final class Standalone {
    private Standalone() {}

    /** The outcome: the exit code and the first error line (null when none). */
    public record Outcome(int code, String error) {}

    public static Outcome run(
            List<Path> files, double timeoutSeconds, PrintStream out, PrintStream log)
            throws IOException {
        long deadline = System.nanoTime() + (long) (timeoutSeconds * 1e9);
        StandalonePlatform platform = new StandalonePlatform(out, log);
        if (!files.isEmpty()) platform.scriptPath(files.getLast().toString());
        Library lib = Prelude.library(platform);
        List<Expr.Sequence> programs = new ArrayList<>();
        List<org.groovecast.liquidsoap.syntax.Statement> all = new ArrayList<>();
        try {
            for (Path f : files) {
                Expr.Sequence program = Scripts.parse(f).program();
                programs.add(program);
                all.addAll(program.items());
            }
        } catch (SyntaxError e) {
            return new Outcome(1, e.getMessage());
        }
        // Checked as Liquidsoap checks them, as one script, before anything runs
        Map<org.groovecast.liquidsoap.syntax.Span, org.groovecast.liquidsoap.syntax.TypeAnnotation>
                jsonTypes = new HashMap<>();
        EvalCheck evalCheck = EvalCheck.NONE;
        if (!programs.isEmpty()) {
            Expr.Sequence whole = new Expr.Sequence(programs.getFirst().span(), all);
            for (TypeCheck checker : TypeCheck.found()) {
                TypeCheck.Result r = checker.check(whole, lib);
                if (!r.ok()) {
                    TypeCheck.Problem p = r.problems().getFirst();
                    return new Outcome(1, p.span() + ": " + p.message());
                }
                jsonTypes.putAll(r.jsonTypes());
                evalCheck = r.evalCheck();
            }
        }
        Evaluator evaluator = new Evaluator(Hooks.NONE, jsonTypes, evalCheck);
        Map<String, Object> globals = new HashMap<>(Prelude.globals(lib, evaluator));
        Env env = Env.of(globals);
        List<String> errors = new ArrayList<>();
        try {
            for (Expr.Sequence program : programs) {
                env = evaluator.run(program, env).env();
                if (platform.exitCode() != null) break;
            }
            if (platform.exitCode() == null) {
                boolean stopped =
                        platform.runDue(
                                deadline,
                                e -> {
                                    errors.add(message(e));
                                    platform.shutdown(1);
                                });
                if (!stopped && platform.exitCode() == null) {
                    return new Outcome(
                            2,
                            errors.isEmpty() ? "still running (no shutdown)" : errors.getFirst());
                }
            }
        } catch (Halt h) {
            return new Outcome(h.code(), errors.isEmpty() ? null : errors.getFirst());
        } catch (LiqError e) {
            return new Outcome(1, withTrace(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome(2, "interrupted");
        }
        int code = platform.exitCode() == null ? 0 : platform.exitCode();
        return new Outcome(code, errors.isEmpty() ? null : errors.getFirst());
    }

    private static String message(RuntimeException e) {
        if (e instanceof Halt h) return "exit " + h.code();
        if (e instanceof LiqError l) return withTrace(l);
        return e.getMessage();
    }

    /** The message, and the calls it went through (where a test's check was called). */
    private static String withTrace(LiqError e) {
        StringBuilder out = new StringBuilder(e.getMessage().lines().findFirst().orElse(""));
        List<org.groovecast.liquidsoap.syntax.Span> trace = e.trace();
        for (int i = 1; i < Math.min(trace.size(), 4); i++)
            out.append(" (from ").append(trace.get(i)).append(')');
        return out.toString();
    }
}
