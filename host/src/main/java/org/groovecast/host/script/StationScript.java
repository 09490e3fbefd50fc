package org.groovecast.host.script;

import groovy.lang.MissingMethodException;
import groovy.lang.Script;
import java.util.ArrayList;
import java.util.List;

/**
 * The base class of compiled station scripts and of the files they include: top-level names resolve
 * to operators and namespaces of the station's {@link ScriptRuntime}.
 */
public abstract class StationScript extends Script {
    private ScriptRuntime runtime;

    /**
     * The scripts this one includes, one instance per include, made with it (see {@link Includes}).
     */
    private final List<StationScript> included = new ArrayList<>();

    void attach(ScriptRuntime runtime) {
        this.runtime = runtime;
        for (StationScript s : included) s.attach(runtime);
    }

    /** The files of the station this script runs in, null before it runs. */
    ScriptFiles files() {
        ScriptRuntime r = runtime;
        return r == null ? null : r.files();
    }

    /**
     * Called by the code {@link Includes} generates for each {@code include(...)}: the library
     * shares this script's runtime.
     */
    protected final <T extends StationScript> T included(T library) {
        included.add(library);
        return library;
    }

    @Override
    public Object getProperty(String name) {
        if (runtime != null) {
            if (name.equals("settings")) return new SettingsNode(runtime, "");
            if (runtime.functions().isNamespace(name)) return new Namespace(runtime, name);
        }
        return super.getProperty(name);
    }

    @Override
    public Object invokeMethod(String name, Object args) {
        if (runtime != null && runtime.functions().find(name).isPresent()) {
            return runtime.call(name, null, ScriptRuntime.asArray(args));
        }
        return super.invokeMethod(name, args);
    }

    /** Reached by implicit-this calls from closures that the meta-class did not resolve. */
    public Object methodMissing(String name, Object args) {
        if (runtime != null && runtime.functions().find(name).isPresent()) {
            return runtime.call(name, null, ScriptRuntime.asArray(args));
        }
        throw new MissingMethodException(name, getClass(), ScriptRuntime.asArray(args));
    }
}
