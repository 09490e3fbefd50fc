package org.groovecast.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.groovecast.liquidsoap.prelude.Standalone;

/**
 * One Liquidsoap test as Liquidsoap's runner runs it, in a process of its own: {@code
 * LiquidsoapTestRun [--timeout=S] test.liq file.liq}, the files evaluated in order in one scope,
 * then their {@code thread.run} functions until {@code shutdown()} or {@code exit(n)}. The exit
 * code is the script's (0 passed, 123 skipped), 1 for an uncaught error, 2 for a script that does
 * not stop in time; the first error goes to standard error.
 */
public final class LiquidsoapTestRun {
    private LiquidsoapTestRun() {}

    public static void main(String[] args) throws IOException {
        double timeout = 20;
        List<Path> files = new ArrayList<>();
        for (String a : args) {
            if (a.startsWith("--timeout=")) timeout = Double.parseDouble(a.substring(10));
            else files.add(Path.of(a));
        }
        Standalone.Outcome o = Standalone.run(files, timeout, System.out, System.err);
        if (o.error() != null)
            System.err.println("ERROR: " + o.error().lines().findFirst().orElse(""));
        System.out.flush();
        System.exit(o.code());
    }
}
