package org.groovecast.host.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code groovecast}: run or check station scripts. */
@Command(
        name = "groovecast",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Live audio streaming engine scripted in Groovy.",
        subcommands = {
            RunCommand.class,
            CheckCommand.class,
            ReloadCommand.class,
            PluginsCommand.class
        })
public final class Main implements Runnable {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Runs the command line and returns its exit code, without exiting. */
    public static int execute(String... args) {
        return new CommandLine(new Main()).execute(args);
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
