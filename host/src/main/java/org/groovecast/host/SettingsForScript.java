package org.groovecast.host;

import java.util.Optional;
import org.groovecast.api.ValueType;
import org.groovecast.host.script.ScriptSettings;

/** A station's {@link Settings} as its script reads and writes them through {@code settings.*}. */
final class SettingsForScript implements ScriptSettings {
    private final Settings settings;

    SettingsForScript(Settings settings) {
        this.settings = settings;
    }

    @Override
    public Optional<ValueType> type(String key) {
        return Settings.key(key).map(Settings.Key::type);
    }

    @Override
    public boolean isPrefix(String path) {
        return Settings.isPrefix(path);
    }

    @Override
    public Object get(String key) {
        return settings.get(key);
    }

    @Override
    public void set(String key, Object value) {
        settings.set(key, value);
    }
}
