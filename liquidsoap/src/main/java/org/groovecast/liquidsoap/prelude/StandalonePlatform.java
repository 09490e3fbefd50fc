package org.groovecast.liquidsoap.prelude;

import java.io.PrintStream;
import java.time.ZonedDateTime;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentHashMap;
import org.groovecast.liquidsoap.eval.Fn;
import org.groovecast.liquidsoap.eval.Show;

/**
 * The platform of a script run without an engine (unit tests, the conformance bench): {@code
 * thread.run} functions queue up and run, in time order, in the thread that calls {@link #runDue};
 * control commands are a map; settings are only kept.
 */
public final class StandalonePlatform implements Platform {
    private final PrintStream out;
    private final PrintStream log;
    private final long started = System.nanoTime();
    private final Map<String, String> env = new ConcurrentHashMap<>();
    private final Map<String, Fn> commands = new ConcurrentHashMap<>();
    private final PriorityQueue<Task> tasks = new PriorityQueue<>();
    private long sequence;
    private volatile Integer exitCode;
    private volatile String scriptPath = "";

    /** The script {@code liquidsoap.script.path} names: the last file of a run. */
    public void scriptPath(String path) {
        this.scriptPath = path;
    }

    @Override
    public String scriptPath() {
        return scriptPath;
    }

    private record Task(long due, long seq, double every, Fn f) implements Comparable<Task> {
        @Override
        public int compareTo(Task o) {
            return due != o.due ? Long.compare(due, o.due) : Long.compare(seq, o.seq);
        }
    }

    public StandalonePlatform(PrintStream out, PrintStream log) {
        this.out = out;
        this.log = log;
    }

    @Override
    public void print(String text) {
        out.print(text);
        out.flush();
    }

    @Override
    public void log(String label, int level, String message) {
        if (level <= 3) log.println("[" + label + ":" + level + "] " + message);
    }

    @Override
    public synchronized void runLater(double delay, double every, boolean fast, Fn f) {
        tasks.add(new Task(System.nanoTime() + (long) (delay * 1e9), sequence++, every, f));
        notifyAll();
    }

    @Override
    public synchronized void shutdown(int code) {
        if (exitCode == null) exitCode = code;
        notifyAll();
    }

    /** The code {@code shutdown} or {@code exit} gave, or null while the script runs. */
    public Integer exitCode() {
        return exitCode;
    }

    /**
     * Runs the queued functions as they fall due until the script stops, none is left, or {@code
     * deadlineNanos} (System.nanoTime) passes; answers whether the script stopped.
     */
    public boolean runDue(long deadlineNanos, java.util.function.Consumer<RuntimeException> failed)
            throws InterruptedException {
        while (true) {
            Task next;
            synchronized (this) {
                while (exitCode == null) {
                    if (tasks.isEmpty()) return false;
                    long wait = tasks.peek().due - System.nanoTime();
                    if (wait <= 0) break;
                    if (System.nanoTime() > deadlineNanos) return false;
                    long millis =
                            Math.max(
                                    1,
                                    Math.min(wait, deadlineNanos - System.nanoTime()) / 1_000_000);
                    wait(millis);
                }
                if (exitCode != null) return true;
                next = tasks.poll();
            }
            try {
                next.f.call();
            } catch (RuntimeException e) {
                failed.accept(e);
            }
            if (next.every > 0) runLater(next.every, next.every, true, next.f);
            if (System.nanoTime() > deadlineNanos) return exitCode != null;
        }
    }

    @Override
    public ZonedDateTime now() {
        return ZonedDateTime.now();
    }

    @Override
    public double uptime() {
        return (System.nanoTime() - started) / 1e9;
    }

    @Override
    public String getenv(String name) {
        String v = env.get(name);
        return v != null ? v : System.getenv(name);
    }

    @Override
    public void setenv(String name, String value) {
        env.put(name, value);
    }

    @Override
    public boolean setting(String path, Object value) {
        return path.equals("log.level") || path.startsWith("init.");
    }

    @Override
    public void registerCommand(String name, String usage, String description, Fn handler) {
        commands.put(name, handler);
    }

    @Override
    public String executeCommand(String command) {
        int space = command.indexOf(' ');
        String name = space < 0 ? command : command.substring(0, space);
        String arg = space < 0 ? "" : command.substring(space + 1);
        Fn f = commands.get(name);
        if (f == null) return "ERROR: unknown command, type \"help\" to get a list of commands.";
        return Show.text(f.call(arg));
    }
}
