package org.groovecast.api;

import java.util.List;
import org.pf4j.ExtensionPoint;

/**
 * The extension point through which a plugin declares settings of its own: mark an implementation
 * with PF4J's {@code @Extension} and the engine adds its declarations to the settings a script may
 * set. The plugin's code reads them with {@link SettingSpec#valueIn(StreamContext)}.
 */
public interface SettingsProvider extends ExtensionPoint {
    /** The settings this plugin declares, each name starting with a word of the plugin's own. */
    List<SettingSpec> settings();
}
