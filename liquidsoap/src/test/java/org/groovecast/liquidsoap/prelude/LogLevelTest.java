package org.groovecast.liquidsoap.prelude;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.groovecast.liquidsoap.eval.Env;
import org.groovecast.liquidsoap.eval.Evaluator;
import org.groovecast.liquidsoap.eval.Hooks;
import org.groovecast.liquidsoap.parser.Scripts;
import org.junit.jupiter.api.Test;

/** {@code settings.log.level} silences the script's log lines above it, as in Liquidsoap. */
class LogLevelTest {
    private final List<String> logged = new ArrayList<>();

    @Test
    void theScriptsLinesAboveTheLevelAreDroppedThreeUnlessSet() {
        run(
                """
                log("important")
                log(level=4, "info, dropped at the default level 3")
                log.info("dropped too")
                log.critical("critical")
                """);
        assertEquals(List.of("3 important", "1 critical"), logged);
    }

    @Test
    void raisingTheLevelLetsInfoThroughAndLoweringItSilences() {
        run(
                """
                log.level := 4
                log.info("now heard")
                settings.log.level := 1
                log.warning("dropped")
                log.critical("still heard")
                """);
        assertEquals(List.of("4 now heard", "1 still heard"), logged);
    }

    @Test
    void settingItIsNotReportedAsIgnored() {
        run("settings.log.level := 4\n");
        assertEquals(List.of(), logged);
    }

    private void run(String code) {
        Platform standalone = new StandalonePlatform(System.out, System.err);
        Platform recording =
                (Platform)
                        Proxy.newProxyInstance(
                                Platform.class.getClassLoader(),
                                new Class<?>[] {Platform.class},
                                (proxy, method, args) -> {
                                    if (method.getName().equals("log")) {
                                        logged.add(args[1] + " " + args[2]);
                                        return null;
                                    }
                                    if (method.getName().equals("setting")) return false;
                                    try {
                                        return method.invoke(standalone, args);
                                    } catch (InvocationTargetException e) {
                                        throw e.getCause();
                                    }
                                });
        Evaluator evaluator = new Evaluator(Hooks.NONE);
        Env env = Env.of(Prelude.globals(Prelude.library(recording), evaluator));
        evaluator.run(Scripts.parse("test.liq", code, Path.of("."), List.of()).program(), env);
    }
}
