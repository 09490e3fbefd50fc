package org.groovecast.liquidsoap.prelude;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.groovecast.liquidsoap.parser.Scripts;
import org.groovecast.liquidsoap.types.Signatures;
import org.groovecast.liquidsoap.types.TypeChecker;

/** Checks that names are registered with a type the type checker reads. */
final class Registered {
    private Registered() {}

    /** Each name is in the prelude's library, and its type reads (the checker takes a use). */
    static void withTypes(String... names) {
        Library lib = Prelude.library(new StandalonePlatform(System.out, System.err));
        Map<String, String> types = new LinkedHashMap<>();
        types.put("ignore", "('a) -> unit");
        StringBuilder uses = new StringBuilder();
        for (String n : names) {
            String t = lib.types().get(n);
            assertNotNull(t, n + " is not registered");
            types.put(n, t);
            uses.append("ignore(").append(n).append(")\n");
        }
        TypeChecker.of(Signatures.of(types))
                .check(Scripts.parse("t.liq", uses.toString(), Path.of("."), List.of()));
    }
}
