package org.groovecast.liquidsoap.engine;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.groovecast.host.script.ScriptError;
import org.groovecast.host.script.ScriptErrors;
import org.groovecast.host.script.ScriptFiles;
import org.groovecast.host.script.ScriptFrontEnd;
import org.groovecast.host.script.ScriptFunctions;
import org.groovecast.host.script.ScriptSettings;
import org.groovecast.liquidsoap.eval.Evaluator;
import org.groovecast.liquidsoap.eval.LiqError;
import org.groovecast.liquidsoap.parser.ParsedScript;
import org.groovecast.liquidsoap.parser.Scripts;
import org.groovecast.liquidsoap.prelude.Library;
import org.groovecast.liquidsoap.prelude.TypeCheck;
import org.groovecast.liquidsoap.syntax.SyntaxError;

/**
 * Stations written in Liquidsoap 2.4: {@code groovecast run station.liq}. Loading reads the script
 * and its {@code %include}s, then checks it before anything is built, as Liquidsoap does: names
 * nothing defines ({@code station.liq:12:4: unknown function foo; did you mean fo?}), then types,
 * by the type checker found ({@link TypeCheck}: {@code station.liq:12:4: this value has type string
 * but it should be a subtype of int}); the first problem is the one message. Running it evaluates
 * it against the station's runtime ({@link LiquidsoapScript}), so a script that fails its check (on
 * {@code check}, {@code run} or a reload) builds nothing. Found by the engine through {@link
 * java.util.ServiceLoader}.
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
    public String language() {
        return "Liquidsoap " + Evaluator.VERSION;
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
        List<LiqError> unknown = script.unknownNames(functions);
        if (!unknown.isEmpty()) throw Located.of(unknown.getFirst(), name);
        Library library = script.library(functions);
        for (TypeCheck checker : CHECKERS) {
            TypeCheck.Result r = checker.check(parsed.program(), library);
            if (!r.ok()) {
                TypeCheck.Problem p = r.problems().getFirst();
                throw Located.error(p.span(), name, Located.display(p.message(), parsed), null);
            }
            script.jsonTypes(r.jsonTypes());
            script.evalCheck(r.evalCheck());
        }
        return script;
    }

    /** The type checkers on the class path: the types package's, found once. */
    private static final List<TypeCheck> CHECKERS = TypeCheck.found();

    private static List<Path> libraryDirs() {
        String path = System.getProperty(LIBRARY_PATH, "");
        List<Path> dirs = new ArrayList<>();
        for (String d : path.split(":")) if (!d.isBlank()) dirs.add(Path.of(d));
        return dirs;
    }
}
