package org.groovecast.host.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.groovecast.host.Station;
import org.groovecast.host.plugin.OperatorPlugins;
import org.groovecast.host.script.FrontEnds;
import org.groovecast.host.script.ScriptError;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Groovecast answering as the {@code liquidsoap} binary does, where AzuraCast's supervisor and its
 * "restart" and "check configuration" buttons run it (the distribution's {@code bin/liquidsoap}):
 * {@code liquidsoap FILE} runs the station as {@code groovecast run FILE} does (SIGHUP reloads,
 * SIGTERM and SIGINT stop it cleanly); {@code liquidsoap --check FILE} and {@code --check -} (the
 * script on standard input) check it, the messages on standard output, exit 1 when it cannot run;
 * {@code --version} names Groovecast and the Liquidsoap dialect it speaks. Liquidsoap's logging
 * flags are taken; any other flag is refused in one line with Liquidsoap's exit status, 2.
 */
@Command(
        name = "liquidsoap",
        sortOptions = false,
        description = {
            "Groovecast where the liquidsoap command is expected (AzuraCast):"
                    + " run a Liquidsoap station, or check it."
        })
public final class LiquidsoapCommand implements Callable<Integer> {
    /** The exit status of a command line Liquidsoap does not take (OCaml's Arg.Bad). */
    static final int USAGE = 2;

    @Option(
            names = {"-c", "--check"},
            description =
                    "Check the script without running it: exit 1 on errors, the messages on standard output.")
    boolean check;

    @Option(
            names = "--version",
            description = "Print Groovecast's version and the Liquidsoap dialect it speaks.")
    boolean version;

    @Option(
            names = {"-v", "--verbose"},
            description = "Print log messages (the default).")
    boolean verbose;

    @Option(
            names = {"-q", "--quiet"},
            description = "Print error log messages only.")
    boolean quiet;

    @Option(names = "--debug", description = "Print debugging log messages.")
    boolean debug;

    @Option(
            names = "--cache-stdlib",
            description = "Nothing to do: Groovecast keeps no cache of a standard library.")
    boolean cacheStdlib;

    @Option(names = "--no-cache", description = "Nothing to do: Groovecast keeps no script cache.")
    boolean noCache;

    @Option(
            names = {"--help", "-help"},
            usageHelp = true,
            description = "Print this help.")
    boolean help;

    @Parameters(
            arity = "0..1",
            paramLabel = "SCRIPT",
            description = "The station script, or - for standard input (with --check).")
    String script;

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Runs the command line and returns its exit code, without exiting. */
    public static int execute(String... args) {
        CommandLine cli = new CommandLine(new LiquidsoapCommand());
        cli.setExpandAtFiles(false);
        cli.setParameterExceptionHandler(LiquidsoapCommand::refuse);
        return cli.execute(args);
    }

    /** One line, in Liquidsoap's words where it has them, and its exit status. */
    private static int refuse(CommandLine.ParameterException e, String[] args) {
        String line = e.getMessage();
        if (e instanceof CommandLine.UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
            String first = u.getUnmatched().getFirst();
            line =
                    first.startsWith("-")
                            ? "unknown option '" + first + "'."
                            : "one script at a time: '" + first + "' is one too many.";
        }
        e.getCommandLine().getErr().println("liquidsoap: " + line);
        return USAGE;
    }

    @Override
    public Integer call() throws InterruptedException {
        if (version) {
            printVersion(System.out);
            return 0;
        }
        if (cacheStdlib) return 0;
        if (script == null) {
            System.err.println(
                    "liquidsoap: no script given (liquidsoap FILE, liquidsoap --check FILE or -)");
            return 1;
        }
        CommonOptions options = new CommonOptions();
        options.logLevel = debug ? "debug" : quiet ? "error" : "info";
        if (check) return check(options);
        if (script.equals("-")) {
            System.err.println(
                    "liquidsoap: a station runs from its file, which SIGHUP reloads;"
                            + " standard input is for --check -");
            return 1;
        }
        RunCommand run = new RunCommand();
        run.options = options;
        run.scripts = List.of(Path.of(script));
        return run.call();
    }

    private int check(CommonOptions options) {
        options.applyLogLevel();
        try (OperatorPlugins plugins = OperatorPlugins.load(options.pluginsDir())) {
            if (script.equals("-")) return checkStandardInput(plugins, options);
            Path file = Path.of(script);
            String name = file.getFileName().toString();
            try {
                ok(
                        name + ": ",
                        Station.load(file, plugins.functions(), options.settings(), Map.of()));
                return 0;
            } catch (RuntimeException e) {
                LoadFailure.print(name + ": ", e, System.out, ScriptError::getMessage);
                return 1;
            }
        }
    }

    private static int checkStandardInput(OperatorPlugins plugins, CommonOptions options) {
        String text;
        try {
            text = StandardInputScript.read(System.in);
        } catch (IOException e) {
            System.out.println("cannot read the script from standard input: " + e.getMessage());
            return 1;
        }
        try {
            ok(
                    "",
                    Station.load(
                            StandardInputScript.NAME,
                            text,
                            plugins.functions(),
                            options.settings()));
            return 0;
        } catch (RuntimeException e) {
            LoadFailure.print("", e, System.out, StandardInputScript::message);
            return 1;
        }
    }

    private static void ok(String prefix, Station station) {
        System.out.println(prefix + "OK, " + station.graph().outputs().size() + " output(s)");
    }

    /**
     * {@code Groovecast 0.1.0 (Liquidsoap 2.4.5 dialect)}, then the dialect alone on a line that
     * begins with "Liquidsoap ", where AzuraCast reads the version it shows.
     */
    static void printVersion(PrintStream out) {
        String v = Main.class.getPackage().getImplementationVersion();
        String groovecast = "Groovecast " + (v != null ? v : "development build");
        String dialect;
        try {
            dialect = FrontEnds.forFile(StandardInputScript.NAME).language() + " dialect";
        } catch (ScriptError e) {
            out.println(groovecast + " (without its Liquidsoap front end)");
            return;
        }
        out.println(groovecast + " (" + dialect + ")");
        out.println(dialect);
    }
}
