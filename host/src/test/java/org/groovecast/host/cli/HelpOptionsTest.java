package org.groovecast.host.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code --help} and {@code --version} on every command, as picocli's standard help options give
 * them.
 */
class HelpOptionsTest {
    private record Result(int code, String out, String err) {}

    private static Result execute(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new Main());
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int code = cli.execute(args);
        return new Result(code, out.toString(), err.toString());
    }

    private static void assertUsage(Result r, String command, String... options) {
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("Usage: groovecast " + command), r.out());
        for (String o : options) assertTrue(r.out().contains(o), o + " in\n" + r.out());
    }

    @Test
    void runHelpPrintsItsUsageWithItsOptions() {
        Result r = execute("run", "--help");
        assertUsage(
                r,
                "run",
                "SCRIPT",
                "--stop-after=SECONDS",
                "--watch",
                "--set=KEY=VALUE",
                "--plugins-dir=DIR",
                "-l, --log-level=LEVEL",
                "-h, --help",
                "-V, --version");
        assertUsage(execute("run", "-h"), "run", "--stop-after=SECONDS");
    }

    @Test
    void checkHelpPrintsItsUsageWithItsOptions() {
        assertUsage(
                execute("check", "--help"),
                "check",
                "SCRIPT",
                "--set=KEY=VALUE",
                "--plugins-dir=DIR",
                "-l, --log-level=LEVEL",
                "-h, --help");
    }

    @Test
    void everyCommandAndSubcommandTakesHelpAndVersion() {
        List<String> commands = new ArrayList<>();
        collect(new CommandLine(new Main()), "", commands);
        assertTrue(
                commands.containsAll(
                        List.of(
                                "run",
                                "check",
                                "reload",
                                "plugins",
                                "plugins list",
                                "plugins info",
                                "plugins install",
                                "plugins remove")),
                commands.toString());
        for (String c : commands) {
            List<String> args = new ArrayList<>(List.of(c.split(" ")));
            args.add("--help");
            assertUsage(execute(args.toArray(String[]::new)), c, "-h, --help");
            args.set(args.size() - 1, "--version");
            Result v = execute(args.toArray(String[]::new));
            assertEquals(0, v.code(), c + " --version: " + v.err());
            assertTrue(v.out().startsWith("groovecast "), c + " --version: " + v.out());
        }
    }

    private static void collect(CommandLine cli, String prefix, List<String> into) {
        for (var e : cli.getSubcommands().entrySet()) {
            String name = (prefix + " " + e.getKey()).trim();
            into.add(name);
            collect(e.getValue(), name, into);
        }
    }
}
