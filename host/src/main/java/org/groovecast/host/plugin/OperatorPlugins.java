package org.groovecast.host.plugin;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.groovecast.api.ApiVersion;
import org.groovecast.api.LiveDecoder;
import org.groovecast.api.OperatorProvider;
import org.groovecast.api.OperatorSpec;
import org.groovecast.api.SettingSpec;
import org.groovecast.api.SettingsProvider;
import org.groovecast.host.Settings;
import org.groovecast.host.script.ScriptFunctions;
import org.pf4j.DefaultPluginManager;
import org.pf4j.PluginManager;
import org.pf4j.PluginState;
import org.pf4j.PluginWrapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator plugins of a plugins directory, loaded by PF4J each in its own class loader. A
 * plugin that fails to load or start, or that claims a name another plugin has, is skipped and
 * reported; the others load.
 */
public final class OperatorPlugins implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(OperatorPlugins.class);

    private final PluginManager manager;
    private final ScriptFunctions functions = new ScriptFunctions();
    private final List<String> problems = new ArrayList<>();

    private OperatorPlugins(PluginManager manager) {
        this.manager = manager;
    }

    /** Loads and starts every plugin in {@code dir}; a missing directory means no plugins. */
    public static OperatorPlugins load(Path dir) {
        PluginManager pm = new DefaultPluginManager(dir);
        pm.setSystemVersion(ApiVersion.CURRENT);
        OperatorPlugins plugins = new OperatorPlugins(pm);
        if (!Files.isDirectory(dir)) {
            log.warn("plugins directory {} does not exist: no operators are available", dir);
            return plugins;
        }
        ExpandedPluginZips.refresh(dir);
        pm.loadPlugins();
        plugins.reportUnloadable(dir);
        pm.startPlugins();
        for (PluginWrapper p : pm.getPlugins()) {
            if (p.getPluginState() != PluginState.STARTED) {
                Throwable why = p.getFailedException();
                plugins.problem(
                        "plugin "
                                + p.getPluginId()
                                + " "
                                + p.getDescriptor().getVersion()
                                + " is not started ("
                                + p.getPluginState()
                                + (why != null ? ": " + why.getMessage() : "")
                                + ")");
                continue;
            }
            plugins.register(p);
        }
        return plugins;
    }

    /** PF4J skips what it cannot read; say which files those were, without its stack traces. */
    private void reportUnloadable(Path dir) {
        Set<Path> loaded = new HashSet<>();
        for (PluginWrapper p : manager.getPlugins())
            loaded.add(p.getPluginPath().toAbsolutePath().normalize());
        try (Stream<Path> entries = Files.list(dir)) {
            entries.map(e -> e.toAbsolutePath().normalize())
                    .filter(
                            e ->
                                    e.toString().endsWith(".jar")
                                            || e.toString().endsWith(".zip")
                                            || Files.isDirectory(e))
                    .filter(e -> !loaded.contains(e))
                    .filter(
                            e ->
                                    !e.toString().endsWith(".zip")
                                            || !loaded.contains(
                                                    Path.of(
                                                            e.toString()
                                                                    .replaceFirst("\\.zip$", ""))))
                    .sorted()
                    .forEach(
                            e ->
                                    problem(
                                            e.getFileName()
                                                    + " in "
                                                    + dir
                                                    + " is not a loadable plugin "
                                                    + "(corrupt, or no Plugin-Id in its manifest); skipped"));
        } catch (IOException e) {
            problem("cannot list plugins directory " + dir + ": " + e.getMessage());
        }
    }

    private void register(PluginWrapper p) {
        List<OperatorSpec> specs = new ArrayList<>();
        try {
            for (OperatorProvider provider :
                    manager.getExtensions(OperatorProvider.class, p.getPluginId())) {
                specs.addAll(provider.operators());
            }
        } catch (RuntimeException | LinkageError e) {
            problem("plugin " + p.getPluginId() + " failed to declare its operators: " + e);
            return;
        }
        declareSettings(p);
        try {
            for (LiveDecoder d : manager.getExtensions(LiveDecoder.class, p.getPluginId()))
                functions.addService(LiveDecoder.class, d);
        } catch (RuntimeException | LinkageError e) {
            problem("plugin " + p.getPluginId() + " failed to provide its live decoder: " + e);
        }
        for (OperatorSpec spec : specs) {
            try {
                functions.add(spec, p.getPluginId());
            } catch (IllegalStateException clash) {
                problem(clash.getMessage() + "; keeping " + functions.owner(spec.name()) + "'s");
            }
        }
        log.debug(
                "plugin {} {}: {} operators",
                p.getPluginId(),
                p.getDescriptor().getVersion(),
                specs.size());
    }

    /**
     * Adds the plugin's settings to the ones scripts may set; one that clashes is skipped and
     * reported.
     */
    private void declareSettings(PluginWrapper p) {
        List<SettingSpec> declared = new ArrayList<>();
        try {
            for (SettingsProvider provider :
                    manager.getExtensions(SettingsProvider.class, p.getPluginId())) {
                declared.addAll(provider.settings());
            }
        } catch (RuntimeException | LinkageError e) {
            problem("plugin " + p.getPluginId() + " failed to declare its settings: " + e);
            return;
        }
        for (SettingSpec spec : declared) {
            try {
                Settings.declare(spec, p.getPluginId());
            } catch (IllegalStateException clash) {
                problem(clash.getMessage() + "; skipped");
            }
        }
    }

    private void problem(String message) {
        problems.add(message);
        log.error(message);
    }

    /** The script names all loaded plugins provide. */
    public ScriptFunctions functions() {
        return functions;
    }

    /** What went wrong while loading, one message per plugin or clash. */
    public List<String> problems() {
        return List.copyOf(problems);
    }

    public List<PluginWrapper> plugins() {
        return manager.getPlugins();
    }

    @Override
    public void close() {
        // One by one over a copy: PF4J's bulk stop iterates the list it modifies.
        for (PluginWrapper p : List.copyOf(manager.getPlugins()))
            manager.unloadPlugin(p.getPluginId());
    }
}
