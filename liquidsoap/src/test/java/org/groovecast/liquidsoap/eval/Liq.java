package org.groovecast.liquidsoap.eval;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.groovecast.liquidsoap.parser.Scripts;
import org.groovecast.liquidsoap.prelude.Library;
import org.groovecast.liquidsoap.prelude.Prelude;
import org.groovecast.liquidsoap.prelude.StandalonePlatform;

/** Runs snippets of Liquidsoap for tests: their value as Liquidsoap prints it, or their output. */
public final class Liq {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final StandalonePlatform platform =
            new StandalonePlatform(
                    new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(out, true, StandardCharsets.UTF_8));
    private final Evaluator evaluator = new Evaluator(Hooks.NONE);
    private final Env env;

    public Liq() {
        Library lib = Prelude.library(platform);
        env = Env.of(Prelude.globals(lib, evaluator));
    }

    /** The value of {@code code}, as {@code print} would show it. */
    public static String value(String code) {
        return Show.value(new Liq().eval(code));
    }

    public Object eval(String code) {
        return evaluator
                .run(Scripts.parse("test.liq", code, Path.of("."), List.of()).program(), env)
                .value();
    }

    /** What {@code code} printed. */
    public static String output(String code) {
        Liq liq = new Liq();
        liq.eval(code);
        return liq.out.toString(StandardCharsets.UTF_8);
    }

    /** The message of the error {@code code} raises (it must raise one). */
    public static String error(String code) {
        try {
            Object v = new Liq().eval(code);
            throw new AssertionError("no error, the value is " + Show.value(v));
        } catch (LiqError e) {
            return e.getMessage();
        }
    }

    public StandalonePlatform platform() {
        return platform;
    }
}
