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

    /** The setting this node also is ({@code harbor.accessLog} of harbor.accessLog.*), or null. */
    private final String leaf;

    SettingsNode(ScriptRuntime runtime, String prefix) {
        this(runtime, prefix, null);
    }

    private SettingsNode(ScriptRuntime runtime, String prefix, String leaf) {
        this.runtime = runtime;
        this.prefix = prefix;
        this.leaf = leaf;
    }

    @Override
    public Object getProperty(String name) {
        String key = prefix + name;
        if (runtime.settings().type(key).isPresent()) {
            // A setting that others extend (harbor.accessLog, harbor.accessLog.hashAddresses):
            // the node of the others, which reads as the setting's value.
            if (runtime.settings().isPrefix(key)) return new SettingsNode(runtime, key + ".", key);
            return runtime.settings().get(key);
        }
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

    /** A node that is also a setting reads as that setting's value. */
    @Override
    public String toString() {
        return leaf == null ? "settings." + prefix : String.valueOf(runtime.settings().get(leaf));
    }
}
