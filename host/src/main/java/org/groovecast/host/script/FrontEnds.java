package org.groovecast.host.script;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/**
 * The front ends on the class path: those {@link ServiceLoader} finds ({@code
 * META-INF/services/org.groovecast.host.script.ScriptFrontEnd}), then Groovy, which takes any file
 * the others do not claim.
 */
public final class FrontEnds {
    private static final List<ScriptFrontEnd> FOUND = find();

    private FrontEnds() {}

    private static List<ScriptFrontEnd> find() {
        List<ScriptFrontEnd> all = new ArrayList<>();
        for (ScriptFrontEnd f :
                ServiceLoader.load(ScriptFrontEnd.class, FrontEnds.class.getClassLoader())) {
            all.add(f);
        }
        return List.copyOf(all);
    }

    /** The front end for a script named {@code fileName}. */
    public static ScriptFrontEnd forFile(String fileName) {
        for (ScriptFrontEnd f : FOUND) if (f.reads(fileName)) return f;
        if (fileName.endsWith(".liq")) {
            throw new ScriptError(
                    fileName,
                    0,
                    "no front end reads .liq scripts here: the Liquidsoap front end"
                            + " (groovecast-liquidsoap) is not on the class path");
        }
        return new GroovyFrontEnd();
    }

    /** Every front end found, Groovy last. */
    public static List<ScriptFrontEnd> all() {
        List<ScriptFrontEnd> all = new ArrayList<>(FOUND);
        all.add(new GroovyFrontEnd());
        return all;
    }
}
