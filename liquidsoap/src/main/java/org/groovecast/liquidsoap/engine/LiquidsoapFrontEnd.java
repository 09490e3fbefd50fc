package org.groovecast.liquidsoap.engine;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.function.Consumer;
import org.groovecast.host.script.ScriptError;
import org.groovecast.host.script.ScriptErrors;
import org.groovecast.host.script.ScriptFiles;
import org.groovecast.host.script.ScriptFrontEnd;
import org.groovecast.host.script.ScriptFunctions;
import org.groovecast.host.script.ScriptSettings;
import org.groovecast.liquidsoap.eval.LiqError;
import org.groovecast.liquidsoap.parser.ParsedScript;
import org.groovecast.liquidsoap.parser.Scripts;
import org.groovecast.liquidsoap.prelude.TypeCheck;
import org.groovecast.liquidsoap.syntax.SyntaxError;

/**
 * Stations written in Liquidsoap 2.4: {@code groovecast run station.liq}. Loading reads the script
 * and its {@code %include}s, then checks it before anything is built: names nothing defines ({@code
 * station.liq:12:4: unknown function foo; did you mean fo?}), then the type checkers found ({@link
 * TypeCheck}). Running it evaluates it against the station's runtime ({@link LiquidsoapScript}).
 * Found by the engine through {@link java.util.ServiceLoader}.
 */
public final class LiquidsoapFrontEnd implements ScriptFrontEnd {
    /**
     * Where {@code %include <file>} looks: the directories of this system property,
     * colon-separated.
     */
    static final String LIBRARY_PATH = "groovecast.liquidsoap.library";

    @Override
    public boolean reads(String fileName) {
        return fileName.endsWith(".liq");
    }

    @Override
    public Script load(
            Path file, ScriptFunctions functions, ScriptSettings settings, Consumer<Path> reading) {
        String name = file.getFileName().toString();
        ParsedScript parsed;
        try {
            parsed = Scripts.parse(file, libraryDirs(), reading);
        } catch (SyntaxError e) {
            throw Located.of(e);
        } catch (IOException e) {
            throw new ScriptError(name, 0, "cannot read script: " + e.getMessage());
        }
        return checked(name, parsed, functions);
    }

    @Override
    public Script load(
            String fileName, String text, ScriptFunctions functions, ScriptSettings settings) {
        ParsedScript parsed;
        try {
            parsed = Scripts.parse(fileName, text, Path.of("").toAbsolutePath(), libraryDirs());
        } catch (SyntaxError e) {
            throw Located.of(e);
        }
        return checked(fileName, parsed, functions);
    }

    private static Script checked(String name, ParsedScript parsed, ScriptFunctions functions) {
        try {
            return check(name, parsed, functions);
        } catch (ScriptError | ScriptErrors e) {
            throw e;
        } catch (RuntimeException e) {
            throw new ScriptError(name, 0, "the script could not be checked: " + e, null);
        }
    }

    private static Script check(String name, ParsedScript parsed, ScriptFunctions functions) {
        LiquidsoapScript script =
                new LiquidsoapScript(name, parsed, ScriptFiles.of(name, parsed.files()));
        List<ScriptError> errors = new ArrayList<>();
        for (LiqError e : script.unknownNames(functions)) errors.add(Located.of(e, name));
        if (errors.isEmpty()) {
            for (TypeCheck checker :
                    ServiceLoader.load(
                            TypeCheck.class, LiquidsoapFrontEnd.class.getClassLoader())) {
                for (TypeCheck.Problem p :
                        checker.check(parsed.program(), script.library(functions))) {
                    errors.add(Located.error(p.span(), name, p.message(), null));
                }
                if (!errors.isEmpty()) break;
            }
        }
        if (!errors.isEmpty())
            throw errors.size() == 1 ? errors.getFirst() : new ScriptErrors(errors.subList(0, 1));
        return script;
    }

    private static List<Path> libraryDirs() {
        String path = System.getProperty(LIBRARY_PATH, "");
        List<Path> dirs = new ArrayList<>();
        for (String d : path.split(":")) if (!d.isBlank()) dirs.add(Path.of(d));
        return dirs;
    }
}
