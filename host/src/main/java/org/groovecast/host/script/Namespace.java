package org.groovecast.host.script;

import groovy.lang.GroovyObjectSupport;
import org.groovecast.api.ScriptException;

/**
 * A dotted prefix of script names ({@code output}, {@code clock}): calls on it are calls of {@code
 * prefix.name}.
 */
public final class Namespace extends GroovyObjectSupport {
    private final ScriptRuntime runtime;
    private final String path;

    Namespace(ScriptRuntime runtime, String path) {
        this.runtime = runtime;
        this.path = path;
    }

    @Override
    public Object getProperty(String name) {
        String full = path + "." + name;
        if (runtime.functions().isNamespace(full)) return new Namespace(runtime, full);
        throw runtime.located(
                new ScriptException(
                        runtime.functions().find(full).isPresent()
                                ? full + " is an operator: call it as " + full + "(...)"
                                : "unknown name " + full));
    }

    @Override
    public Object invokeMethod(String name, Object args) {
        return runtime.call(path + "." + name, null, ScriptRuntime.asArray(args));
    }

    @Override
    public String toString() {
        return path;
    }
}
