package org.groovecast.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.groovecast.host.script.ScriptCompilerTest;
import org.groovecast.host.script.ScriptError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A setting's value is checked where the script sets it: a value it cannot take is refused at that
 * line, not after the script ran (unlocated) or when the clocks start (a stack trace), nor taken
 * silently (1-sample frames, a wrapped integer).
 */
class SettingsAtTheirLineTest {
    static String refusal(String assignment) {
        ScriptError e =
                assertThrows(
                        ScriptError.class,
                        () ->
                                Station.load(
                                        "s.groovy",
                                        "out.sink(tone())\n" + assignment + "\n",
                                        ScriptCompilerTest.functions(),
                                        Map.of()));
        return e.getMessage();
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "settings.time.zone = 'Mars/Olympus' | s.groovy:2: settings.time.zone expects a time zone such as Europe/Paris, UTC or +02:00, got 'Mars/Olympus'",
                "settings.clock.sync = 'fast' | s.groovy:2: settings.clock.sync must be 'auto' or 'none', got 'fast'",
                "settings.clock.startTime = 'monday' | s.groovy:2: settings.clock.startTime expects an ISO-8601 date-time such as 2025-01-06T05:59:55, got 'monday'",
                "settings.video.frame.width = 1281 | s.groovy:2: settings.video.frame.width must be even, got 1281",
                "settings.audio.channels = 0 | s.groovy:2: settings.audio.channels must be from 1 to 8, got 0",
                "settings.frame.duration = -1 | s.groovy:2: settings.frame.duration must be from 0.001 to 1, got -1.0",
                "def rate = json.parse('3000000000'); settings.audio.samplerate = rate | s.groovy:2: settings.audio.samplerate expects an integer that fits in 32 bits, got 3000000000",
                "settings.harbor.trustedProxies = ['127.0.0.1', '10.0.0.0/33'] | s.groovy:2: settings.harbor.trustedProxies: '10.0.0.0/33' is not a CIDR range: an IPv4 prefix is 0 to 32",
                "settings.harbor.trustedProxies = ['proxy.example.org'] | s.groovy:2: settings.harbor.trustedProxies: 'proxy.example.org' is not an IP address or a CIDR range such as 10.0.0.0/8",
                "settings.harbor.accessLog = 12 | s.groovy:2: settings.harbor.accessLog expects a string, got 12",
            })
    void aValueASettingCannotTakeIsRefusedAtItsLine(String assignment, String message) {
        assertEquals(message, refusal(assignment));
    }

    @Test
    void aSettingThatOthersExtendIsSetAndReadAsEither() {
        Station s =
                Station.load(
                        "s.groovy",
                        "out.sink(tone())\n"
                                + "settings.harbor.accessLog = '/var/log/groovecast/access.log'\n"
                                + "settings.harbor.accessLog.hashAddresses = false\n"
                                + "assert \"${settings.harbor.accessLog}\" == '/var/log/groovecast/access.log'\n"
                                + "assert !settings.harbor.accessLog.hashAddresses\n"
                                + "settings.harbor.trustedProxies = ['10.0.0.0/8', '::1']\n",
                        ScriptCompilerTest.functions(),
                        Map.of());
        assertEquals("/var/log/groovecast/access.log", s.settings().string("harbor.accessLog"));
        assertEquals(false, s.settings().bool("harbor.accessLog.hashAddresses"));
        assertEquals(
                java.util.List.of("10.0.0.0/8", "::1"), s.settings().get("harbor.trustedProxies"));
    }

    @Test
    void theCommandLineNamesProxiesInOneText() {
        Station s =
                Station.load(
                        "s.groovy",
                        "out.sink(tone())\n",
                        ScriptCompilerTest.functions(),
                        Map.of("harbor.trustedProxies", "10.0.0.0/8,::1"));
        assertEquals("10.0.0.0/8,::1", s.settings().get("harbor.trustedProxies"));
        assertEquals(
                2,
                org.groovecast.net.harbor.clients.TrustedProxies.parse(
                                s.settings().get("harbor.trustedProxies"))
                        .toString()
                        .split(",")
                        .length);
    }

    @Test
    void theCommandLineIsCheckedTheSameWayAndNamesTheStation() {
        ScriptError e =
                assertThrows(
                        ScriptError.class,
                        () ->
                                Station.load(
                                        "s.groovy",
                                        "out.sink(tone())\n",
                                        ScriptCompilerTest.functions(),
                                        Map.of("audio.channels", "0")));
        assertEquals(
                "s.groovy: settings.audio.channels must be from 1 to 8, got 0", e.getMessage());
    }
}
