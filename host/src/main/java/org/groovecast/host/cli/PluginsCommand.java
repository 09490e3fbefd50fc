package org.groovecast.host.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.groovecast.api.OperatorSpec;
import org.groovecast.host.plugin.OperatorPlugins;
import org.pf4j.PluginWrapper;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code groovecast plugins list|info|install|remove}: the operator plugins of a plugins directory
 * (the distribution's, or {@code --plugins-dir}). Installing checks the new plugin loads beside the
 * others and puts things back as they were if it does not.
 */
@Command(
        name = "plugins",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "List, inspect, install and remove operator plugins.",
        subcommands = {
            PluginsCommand.ListPlugins.class,
            PluginsCommand.Info.class,
            PluginsCommand.Install.class,
            PluginsCommand.Remove.class
        })
final class PluginsCommand implements Runnable {
    @Override
    public void run() {
        new picocli.CommandLine(this).usage(System.out);
    }

    /** The script names a plugin provides, sorted. */
    static List<String> names(OperatorPlugins plugins, String id) {
        List<String> out = new ArrayList<>();
        for (OperatorSpec s : plugins.functions().all()) {
            if (id.equals(plugins.functions().owner(s.name()))) out.add(s.name());
        }
        out.sort(null);
        return out;
    }

    static void printProblems(OperatorPlugins plugins) {
        for (String p : plugins.problems()) System.err.println("problem: " + p);
    }

    @Command(
            name = "list",
            mixinStandardHelpOptions = true,
            versionProvider = VersionProvider.class,
            description = "The plugins and the script names each provides.")
    static final class ListPlugins implements Callable<Integer> {
        @Mixin CommonOptions common;

        @Override
        public Integer call() {
            common.applyLogLevel();
            Path dir = common.pluginsDir();
            try (OperatorPlugins plugins = OperatorPlugins.load(dir)) {
                System.out.println("plugins in " + dir.toAbsolutePath() + ":");
                for (PluginWrapper p : plugins.plugins()) {
                    List<String> names = names(plugins, p.getPluginId());
                    System.out.printf(
                            "%-14s %-16s %3d operators: %s%n",
                            p.getPluginId(),
                            p.getDescriptor().getVersion(),
                            names.size(),
                            String.join(", ", names));
                }
                printProblems(plugins);
                return plugins.problems().isEmpty() ? 0 : 1;
            }
        }
    }

    @Command(
            name = "info",
            mixinStandardHelpOptions = true,
            versionProvider = VersionProvider.class,
            description = "One plugin: version, requirements, operators with their parameters.")
    static final class Info implements Callable<Integer> {
        @Mixin CommonOptions common;

        @Parameters(paramLabel = "ID", description = "the plugin id")
        String id;

        @Override
        public Integer call() {
            common.applyLogLevel();
            try (OperatorPlugins plugins = OperatorPlugins.load(common.pluginsDir())) {
                PluginWrapper p =
                        plugins.plugins().stream()
                                .filter(w -> w.getPluginId().equals(id))
                                .findFirst()
                                .orElse(null);
                if (p == null) {
                    System.err.println(
                            "no plugin " + id + " in " + common.pluginsDir().toAbsolutePath());
                    printProblems(plugins);
                    return 1;
                }
                var d = p.getDescriptor();
                System.out.println(id + " " + d.getVersion());
                System.out.println(
                        "  " + (d.getPluginDescription() == null ? "" : d.getPluginDescription()));
                System.out.println(
                        "  provider: "
                                + d.getProvider()
                                + ", license: "
                                + d.getLicense()
                                + ", requires api "
                                + d.getRequires());
                System.out.println("  file: " + p.getPluginPath());
                for (String name : names(plugins, id)) {
                    OperatorSpec s = plugins.functions().find(name).orElseThrow();
                    System.out.println(
                            "  "
                                    + s.signature()
                                    + (s.doc() == null || s.doc().isEmpty()
                                            ? ""
                                            : "  -- " + s.doc()));
                }
                return 0;
            }
        }
    }

    @Command(
            name = "install",
            mixinStandardHelpOptions = true,
            versionProvider = VersionProvider.class,
            description =
                    "Copies a plugin (jar, zip or directory) into the plugins directory, replacing an older version of it.")
    static final class Install implements Callable<Integer> {
        @Mixin CommonOptions common;

        @Parameters(paramLabel = "FILE|DIR", description = "the plugin")
        Path source;

        @Override
        public Integer call() throws IOException {
            common.applyLogLevel();
            Path dir = common.pluginsDir();
            PluginArchive incoming;
            try {
                incoming = PluginArchive.read(source);
            } catch (IOException e) {
                System.err.println("cannot install: " + e.getMessage());
                return 1;
            }
            Files.createDirectories(dir);
            Path backup = Files.createTempDirectory("groovecast-plugins-");
            List<Path> moved = new ArrayList<>();
            for (PluginArchive old : installed(dir)) {
                if (!old.id().equals(incoming.id())) continue;
                Path to = backup.resolve(old.path().getFileName());
                Files.move(old.path(), to);
                moved.add(to);
            }
            Path target = dir.resolve(source.getFileName());
            copy(source, target);
            try (OperatorPlugins plugins = OperatorPlugins.load(dir)) {
                List<String> mine =
                        plugins.problems().stream()
                                .filter(
                                        p ->
                                                p.contains(incoming.id())
                                                        || p.contains(
                                                                source.getFileName().toString()))
                                .toList();
                boolean loaded =
                        plugins.plugins().stream()
                                .anyMatch(p -> p.getPluginId().equals(incoming.id()));
                if (!loaded || !mine.isEmpty()) {
                    System.err.println(
                            "cannot install "
                                    + incoming.id()
                                    + " "
                                    + incoming.version()
                                    + ": "
                                    + (mine.isEmpty()
                                            ? "it does not load"
                                            : String.join("; ", mine)));
                    delete(target);
                    for (Path m : moved) Files.move(m, dir.resolve(m.getFileName()));
                    return 1;
                }
                System.out.println(
                        "installed "
                                + incoming.id()
                                + " "
                                + incoming.version()
                                + " into "
                                + dir.toAbsolutePath()
                                + (moved.isEmpty()
                                        ? ""
                                        : " (replacing " + moved.size() + " older copy)")
                                + ": "
                                + String.join(", ", names(plugins, incoming.id())));
                System.out.println("a running station picks it up at its next reload");
                delete(backup);
                return 0;
            }
        }
    }

    @Command(
            name = "remove",
            mixinStandardHelpOptions = true,
            versionProvider = VersionProvider.class,
            description = "Deletes a plugin from the plugins directory.")
    static final class Remove implements Callable<Integer> {
        @Mixin CommonOptions common;

        @Parameters(paramLabel = "ID", description = "the plugin id")
        String id;

        @Override
        public Integer call() throws IOException {
            common.applyLogLevel();
            Path dir = common.pluginsDir();
            int removed = 0;
            for (PluginArchive a : installed(dir)) {
                if (!a.id().equals(id)) continue;
                delete(a.path());
                // PF4J unpacks a zip into a directory of the same name: that copy goes too
                String name = a.path().getFileName().toString();
                if (name.endsWith(".zip"))
                    delete(dir.resolve(name.substring(0, name.length() - 4)));
                removed++;
            }
            if (removed == 0) {
                System.err.println("no plugin " + id + " in " + dir.toAbsolutePath());
                return 1;
            }
            System.out.println("removed " + id + " from " + dir.toAbsolutePath());
            return 0;
        }
    }

    /** The plugins of a directory (zips win over the directories PF4J unpacked them into). */
    static List<PluginArchive> installed(Path dir) throws IOException {
        List<PluginArchive> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) return out;
        try (Stream<Path> entries = Files.list(dir)) {
            for (Path p : entries.sorted().toList()) {
                if (Files.isDirectory(p) && Files.exists(dir.resolve(p.getFileName() + ".zip")))
                    continue;
                try {
                    out.add(PluginArchive.read(p));
                } catch (IOException notAPlugin) {
                    // not ours to manage
                }
            }
        }
        return out;
    }

    private static void copy(Path from, Path to) throws IOException {
        if (!Files.isDirectory(from)) {
            Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
            return;
        }
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path p : walk.toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(t);
                else Files.copy(p, t, StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    private static void delete(Path p) throws IOException {
        if (!Files.exists(p)) return;
        try (Stream<Path> walk = Files.walk(p)) {
            for (Path x : walk.sorted(Comparator.reverseOrder()).toList()) Files.delete(x);
        }
    }
}
