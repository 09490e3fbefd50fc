package org.groovecast.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.groovecast.api.ScriptException;
import org.groovecast.api.SettingSpec;
import org.groovecast.api.ValueType;
import org.groovecast.host.script.ScriptCompilerTest;
import org.groovecast.host.script.ScriptError;
import org.groovecast.host.script.ScriptErrors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A setting a plugin declares is one a script and the command line set and get like the engine's
 * own.
 */
class PluginSettingsTest {
    static final SettingSpec LEVEL =
            new SettingSpec("echoPlugin.level", ValueType.INTEGER, 3, "how loud");

    @BeforeAll
    static void declare() {
        Settings.declare(LEVEL, "echo");
    }

    @Test
    void itHasItsDefaultTakesAValueOfItsTypeAndRefusesAnother() {
        Settings s = new Settings();
        assertEquals(3, s.get("echoPlugin.level"));
        s.set("echoPlugin.level", "4"); // as --set gives it
        assertEquals(4, s.integer("echoPlugin.level"));
        ScriptException e =
                assertThrows(ScriptException.class, () -> s.set("echoPlugin.level", "loud"));
        assertEquals("settings.echoPlugin.level expects a integer, got loud", e.getMessage());
        assertTrue(Settings.key("echoPlugin.level").isPresent());
        assertTrue(Settings.isPrefix("echoPlugin"));
    }

    @Test
    void aScriptSetsItAndAWrongTypeIsAnErrorAtItsLine() {
        Station st =
                Station.load(
                        "s.groovy",
                        "settings.echoPlugin.level = 2\nout.sink(tone())\n",
                        ScriptCompilerTest.functions(),
                        Map.of());
        assertEquals(2, st.settings().integer("echoPlugin.level"));
        ScriptErrors e =
                assertThrows(
                        ScriptErrors.class,
                        () ->
                                Station.load(
                                        "s.groovy",
                                        "out.sink(tone())\nsettings.echoPlugin.level = 'loud'\n",
                                        ScriptCompilerTest.functions(),
                                        Map.of()));
        assertEquals(
                List.of(
                        "s.groovy:2: settings.echoPlugin.level expects an integer, got String \"loud\""),
                e.errors().stream().map(ScriptError::getMessage).toList());
    }

    @Test
    void thePluginDeclaringItAgainReplacesItAnotherPluginOrTheEngineCannot() {
        Settings.declare(LEVEL, "echo"); // its plugin loaded again, by a reload's new plugin set
        IllegalStateException other =
                assertThrows(IllegalStateException.class, () -> Settings.declare(LEVEL, "rival"));
        assertEquals(
                "plugin rival declares settings.echoPlugin.level, which plugin echo declares",
                other.getMessage());
        IllegalStateException engine =
                assertThrows(
                        IllegalStateException.class,
                        () ->
                                Settings.declare(
                                        new SettingSpec(
                                                "frame.duration", ValueType.NUMBER, 0.04, "mine"),
                                        "rival"));
        assertEquals(
                "plugin rival declares settings.frame.duration, an engine setting",
                engine.getMessage());
        assertEquals(0.02, new Settings().number("frame.duration"));
    }
}
