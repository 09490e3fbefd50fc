package org.groovecast.host.script;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.groovecast.host.Station;
import org.groovecast.host.StationReloader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * include('lib/x.groovy'): functions and settings from a library, checked statically, located in
 * their own file.
 */
class IncludeTest {
    @TempDir Path dir;

    Path write(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
        return p;
    }

    Station load(Path script) {
        return Station.load(script, ScriptCompilerTest.functions(), Map.of(), Map.of());
    }

    List<String> errors(Path script) {
        ScriptErrors e = assertThrows(ScriptErrors.class, () -> load(script));
        return e.errors().stream().map(ScriptError::getMessage).toList();
    }

    @Test
    void aLibraryGivesFunctionsAndSettingsAndItsTopLevelRunsWhereTheIncludeStands()
            throws IOException {
        write(
                "lib/common.groovy",
                """
                settings.frame.duration = 0.04
                log.info('library loaded')
                double gain() { 0.5d }
                String greet(String who, String greeting = 'hello') { "${greeting} ${who}" }
                def music(double freq) { tone(freq, gain: gain()) }
                Map tagged(Map m, List<String> keys) { m.subMap(keys) + [tagged: 'yes'] }
                """);
        Path radio =
                write(
                        "radio.groovy",
                        """
                log.info('before')
                include('lib/common.groovy')
                log.info(greet('dj') + ', ' + greet('all', 'bye'))
                log.info(tagged([a: 1, b: 2], ['a']).toString())
                out.sink(music(220d))
                """);
        Station s = load(radio);
        assertEquals(
                List.of(
                        "info: before",
                        "info: library loaded",
                        "info: hello dj, bye all",
                        "info: [a:1, tagged:yes]"),
                s.scriptLog().recent());
        assertEquals(0.04, s.settings().number("frame.duration"));
        assertEquals(1, s.graph().outputs().size());
        assertEquals(
                List.of(
                        radio.toAbsolutePath().normalize(),
                        dir.resolve("lib/common.groovy").toAbsolutePath().normalize()),
                s.scriptFiles());
    }

    @Test
    void aLibrarysTopLevelVariablesAndClosuresAreTheIncludingScripts() throws IOException {
        write(
                "lib/state.groovy",
                """
                def apiUrl = 'http://api.example/' + 'v1'
                String station = 'radio'
                int count = 0
                def onLive = { String who -> log.info("live: ${who} on ${station}"); count++ }
                def url() { apiUrl }
                """);
        write("lib/outer.groovy", "include('state.groovy')\ndef outer = 'outer'\n");
        Path radio =
                write(
                        "radio.groovy",
                        """
                        include('lib/outer.groovy')
                        log.info("${apiUrl} ${station} ${outer}")
                        apiUrl = 'http://other/'
                        onLive('dj')
                        count += 10
                        def later = onLive
                        later.call('next')
                        log.info("${url()} ${count}")
                        out.sink(tone())
                        """);
        assertEquals(
                List.of(
                        "info: http://api.example/v1 radio outer",
                        "info: live: dj on radio",
                        "info: live: next on radio",
                        "info: http://other/ 12"),
                load(radio).scriptLog().recent());
    }

    @Test
    void librariesIncludeOthersRelativeToThemselvesAndTheScriptsOwnFunctionWins()
            throws IOException {
        write(
                "lib/a.groovy",
                """
                include('b.groovy')
                String who() { 'a' }
                String shadowed() { 'library' }
                """);
        write(
                "lib/b.groovy",
                """
                String deep() { 'b' }
                """);
        Path radio =
                write(
                        "radio.groovy",
                        """
                include('lib/a.groovy')
                String shadowed() { 'script' }
                log.info("${who()} ${deep()} ${shadowed()}")
                out.sink(tone())
                """);
        assertEquals(List.of("info: a b script"), load(radio).scriptLog().recent());
    }

    @Test
    void aLibrarysMistakeIsReportedAtItsOwnLineAndCallsIntoItAreChecked() throws IOException {
        write(
                "lib/common.groovy",
                """
                def ok() { tone() }

                def broken() { tone('loud') }
                """);
        Path radio =
                write(
                        "radio.groovy",
                        """
                include('lib/common.groovy')
                out.sink(ok())
                """);
        assertEquals(
                List.of(
                        "lib/common.groovy:3: tone() expects a number for freq, got String \"loud\""),
                errors(radio));

        write(
                "lib/common.groovy",
                """
                String greet(String who) { "hi ${who}" }
                """);
        Path wrongCall =
                write(
                        "wrong.groovy",
                        """
                include('lib/common.groovy')
                log.info(greet(3))
                out.sink(tone())
                """);
        List<String> e = errors(wrongCall);
        assertEquals(1, e.size(), e.toString());
        assertTrue(
                e.getFirst().startsWith("wrong.groovy:2: Cannot find matching method")
                        && e.getFirst().contains("greet(int)"),
                e.getFirst());
    }

    @Test
    void aRunTimeMistakeInALibraryFunctionIsLocatedInTheLibrary() throws IOException {
        write(
                "lib/common.groovy",
                """
                def sync(Object v) {
                    settings.clock.sync = v
                }
                """);
        Path radio =
                write(
                        "radio.groovy",
                        """
                include('lib/common.groovy')
                sync(3)
                out.sink(tone())
                """);
        ScriptError e = assertThrows(ScriptError.class, () -> load(radio));
        assertEquals(
                "lib/common.groovy:2: settings.clock.sync expects a string, got 3", e.getMessage());
    }

    @Test
    void cyclesMissingFilesAndMisplacedIncludesAreClearErrors() throws IOException {
        write("a.groovy", "include('b.groovy')\n");
        write("b.groovy", "def x = 1\ninclude('a.groovy')\n");
        Path radio = write("radio.groovy", "include('a.groovy')\nout.sink(tone())\n");
        assertEquals(
                List.of(
                        "b.groovy:2: include cycle: a.groovy -> b.groovy -> a.groovy; a file cannot include itself, "
                                + "even through others"),
                errors(radio));

        Path self = write("self.groovy", "include('self.groovy')\nout.sink(tone())\n");
        assertEquals(
                List.of(
                        "self.groovy:1: include cycle: self.groovy -> self.groovy; a file cannot include itself, "
                                + "even through others"),
                errors(self));

        Path missing = write("missing.groovy", "\ninclude('lib/nope.groovy')\nout.sink(tone())\n");
        assertEquals(
                List.of(
                        "missing.groovy:2: include(): no file "
                                + dir.resolve("lib/nope.groovy").toAbsolutePath().normalize()),
                errors(missing));

        Path misplaced =
                write(
                        "misplaced.groovy",
                        """
                def name = 'lib/a.groovy'
                include(name)
                if (true) {
                    include('a.groovy')
                }
                out.sink(tone())
                """);
        List<String> e = errors(misplaced);
        assertEquals(
                List.of(2, 4),
                e.stream().map(m -> Integer.parseInt(m.split(":")[1])).toList(),
                e.toString());
        assertTrue(
                e.stream()
                        .allMatch(
                                m ->
                                        m.contains(
                                                "include() must stand alone at the top level of the script, with the "
                                                        + "path as a plain string: include('lib/common.groovy')")),
                e.toString());
    }

    @Test
    void aReloadReadsTheLibraryAgainAndEveryIncludedFileIsReported() throws Exception {
        Path lib = write("lib/common.groovy", "String version() { 'one' }\n");
        Path radio =
                write(
                        "radio.groovy",
                        """
                include('lib/common.groovy')
                log.info(version())
                out.sink(tone())
                """);
        StationReloader reloader =
                new StationReloader(radio, ScriptCompilerTest.functions(), Map.of());
        List<Path> included = new ArrayList<>();
        reloader.onIncludedFile(included::add);
        try {
            reloader.start();
            assertEquals(List.of("info: one"), reloader.current().scriptLog().recent());
            Files.writeString(lib, "String version() { 'two' }\n");
            assertTrue(reloader.reload());
            assertEquals(List.of("info: two"), reloader.current().scriptLog().recent());

            Files.writeString(radio, "include('lib/later.groovy')\n" + Files.readString(radio));
            assertFalse(
                    reloader.reload(),
                    "a missing library fails the reload; the station on air stays");
            assertEquals(List.of("info: two"), reloader.current().scriptLog().recent());
        } finally {
            reloader.stop();
        }
        Path common = lib.toAbsolutePath().normalize();
        assertEquals(
                List.of(
                        common,
                        common,
                        dir.resolve("lib/later.groovy").toAbsolutePath().normalize(),
                        common),
                included);
    }
}
