package org.groovecast.host.script;

import groovy.lang.GroovyObjectSupport;
import org.groovecast.api.ScriptException;

/**
 * {@code settings} and its sub-trees: {@code settings.frame.duration = 0.02} reads and writes the
 * {@link ScriptSettings}.
 */
public final class SettingsNode extends GroovyObjectSupport {
    private final ScriptRuntime runtime;
    private final String prefix;

    SettingsNode(ScriptRuntime runtime, String prefix) {
        this.runtime = runtime;
        this.prefix = prefix;
    }

    @Override
    public Object getProperty(String name) {
        String key = prefix + name;
        if (runtime.settings().type(key).isPresent()) return runtime.settings().get(key);
        if (runtime.settings().isPrefix(key)) return new SettingsNode(runtime, key + ".");
        throw runtime.located(new ScriptException("unknown setting settings." + key));
    }

    @Override
    public void setProperty(String name, Object value) {
        try {
            runtime.settings().set(prefix + name, Values.deep(value));
        } catch (ScriptException e) {
            throw runtime.located(e);
        }
    }
}
