package org.groovecast.liquidsoap.prelude;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.groovecast.liquidsoap.eval.Args;
import org.groovecast.liquidsoap.eval.Rec;
import org.groovecast.liquidsoap.eval.Tuple;
import org.groovecast.liquidsoap.eval.Values;

/**
 * {@code process.run(command)}: a shell command ({@code /bin/sh -c}), its output and how it ended,
 * as Liquidsoap answers it ({@code p.stdout}, {@code p.stderr}, {@code p.status} "exit" with {@code
 * p.status.code}, or "timeout", "killed", "exception" with {@code p.status.description}); and the
 * quoting of command lines. The call waits for the process: on a station, {@code thread.run}
 * functions run on the blocking pool, never on a clock. Liquidsoap's sandbox labels ({@code
 * rwdirs}, {@code rodirs}, {@code network}) are accepted and mean nothing here.
 */
final class ProcessFunctions {
    private ProcessFunctions() {}

    /** How long a killed process gets to end before it is killed for good. */
    private static final long KILL_GRACE_MS = 500;

    static void register(Library lib) {
        lib.function(
                "process.run",
                "(?env : [string * string], ?inherit_env : bool, ?stdin : string, ?rwdirs : [string], "
                        + "?rodirs : [string], ?network : bool?, ?timeout : float?, string) -> "
                        + "{stdout : string, stderr : string, status : string.{code : int, description : string}}",
                "Runs a shell command: its stdout, stderr and status (\"exit\" with status.code,"
                        + " \"timeout\", or \"exception\" with status.description).",
                Map.of("env", List.of(), "inherit_env", true, "stdin", ""),
                a -> run(a));
        lib.function(
                "process.quote",
                "(string) -> string",
                "The string quoted as one word of a shell command line.",
                a -> quote(a.string(0)));
        lib.function(
                "process.quote.command",
                "(?stdin : string?, ?stdout : string?, ?stderr : string?, ?args : [string], string) -> string",
                "A quoted command line with its arguments and redirections, for process.run.",
                Map.of("args", List.of()),
                a -> {
                    StringBuilder out = new StringBuilder(quote(a.string(4)));
                    for (Object arg : a.list(3)) out.append(' ').append(quote(str(arg)));
                    String in = a.isNull(0) ? null : a.string(0);
                    String stdout = a.isNull(1) ? null : a.string(1);
                    String stderr = a.isNull(2) ? null : a.string(2);
                    if (in != null) out.append(" <").append(quote(in));
                    if (stdout != null) out.append(" >").append(quote(stdout));
                    if (stderr != null) {
                        if (stderr.equals(stdout)) out.append(" 2>&1");
                        else out.append(" 2>").append(quote(stderr));
                    }
                    return out.toString();
                });
    }

    private static String str(Object v) {
        return String.valueOf(Values.base(v));
    }

    /** One shell word: single quotes, a quote inside as {@code '\''}. */
    static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    private static Object run(Args a) {
        List<String> command = List.of("/bin/sh", "-c", a.string(7));
        ProcessBuilder pb = new ProcessBuilder(command);
        List<Object> env = a.list(0);
        if (!env.isEmpty() || !a.bool(1)) {
            pb.environment().clear();
            for (Object e : env) {
                if (Values.base(e) instanceof Tuple t && t.size() == 2)
                    pb.environment().put(str(t.get(0)), str(t.get(1)));
            }
        }
        double timeout = a.isNull(6) ? -1 : a.number(6);
        long started = System.nanoTime();
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            return result("", "", "exception", -1, e.getMessage());
        }
        Drain out = new Drain(p.getInputStream());
        Drain err = new Drain(p.getErrorStream());
        feed(p.getOutputStream(), a.string(2));
        boolean ended;
        try {
            if (timeout >= 0) {
                ended = p.waitFor((long) (timeout * 1e9), TimeUnit.NANOSECONDS);
            } else {
                p.waitFor();
                ended = true;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            kill(p);
            return result(out.text(), err.text(), "exception", -1, "interrupted");
        }
        if (!ended) {
            kill(p);
            double ran = (System.nanoTime() - started) / 1e9;
            return result(
                    out.text(), err.text(), "timeout", -1, String.format(Locale.ROOT, "%s", ran));
        }
        return result(out.text(), err.text(), "exit", p.exitValue(), "");
    }

    private static void kill(Process p) {
        p.descendants().forEach(ProcessHandle::destroy);
        p.destroy();
        try {
            if (!p.waitFor(KILL_GRACE_MS, TimeUnit.MILLISECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void feed(OutputStream in, String data) {
        Thread.ofVirtual()
                .name("process stdin")
                .start(
                        () -> {
                            try (in) {
                                in.write(data.getBytes(StandardCharsets.UTF_8));
                            } catch (IOException e) {
                                // the process stopped reading: what it read is what it gets
                            }
                        });
    }

    private static Object result(
            String stdout, String stderr, String status, long code, String description) {
        Map<String, Object> st = new LinkedHashMap<>();
        st.put("code", code);
        st.put("description", description);
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("stdout", stdout);
        f.put("stderr", stderr);
        f.put("status", Rec.with(status, st));
        return Rec.record(f);
    }

    /** A stream read to its end on a virtual thread (so a full pipe never blocks the process). */
    private static final class Drain {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final Thread thread;

        Drain(InputStream in) {
            thread =
                    Thread.ofVirtual()
                            .name("process output")
                            .start(
                                    () -> {
                                        try (in) {
                                            in.transferTo(bytes);
                                        } catch (IOException e) {
                                            // closed when the process was killed
                                        }
                                    });
        }

        String text() {
            try {
                thread.join(KILL_GRACE_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return bytes.toString(StandardCharsets.UTF_8);
        }
    }
}
