package org.groovecast.host.request;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.groovecast.api.TimeLimit;
import org.groovecast.api.UserFunction;
import org.groovecast.host.script.ClosureFunction;
import org.groovecast.host.script.ScriptFiles;
import org.groovecast.host.script.ScriptLocation;

/**
 * A protocol the script declared with {@code protocol.add(name) { arg -> uri }} (or {@code { arg,
 * timeout -> [uris] }}, given the seconds left): the function runs on a virtual thread of its own,
 * abandoned if it has not answered in time, and may answer a URI, a list of alternatives, or null /
 * an empty list for nothing.
 */
final class ScriptProtocol implements Protocol {
    private final UserFunction function;
    private final boolean takesTimeout;
    private final boolean temporary;
    private final Supplier<ScriptFiles> scriptFiles;

    ScriptProtocol(
            UserFunction function,
            boolean takesTimeout,
            boolean temporary,
            Supplier<ScriptFiles> files) {
        this.function = function;
        this.takesTimeout = takesTimeout;
        this.temporary = temporary;
        this.scriptFiles = files;
    }

    @Override
    public List<Step> resolve(String name, String arg, double secondsLeft) throws IOException {
        Object answer;
        try {
            answer =
                    TimeLimit.call(
                            "protocol " + name,
                            secondsLeft,
                            () -> takesTimeout ? callRaising(arg, secondsLeft) : callRaising(arg),
                            this::discard);
        } catch (TimeoutException e) {
            throw new IOException(
                    "protocol "
                            + name
                            + " did not answer within "
                            + Resolution.seconds(secondsLeft)
                            + " s; abandoned");
        } catch (RuntimeException e) {
            String where =
                    ScriptLocation.in(e, scriptFiles.get()).map(line -> " at " + line).orElse("");
            throw new IOException(
                    "protocol "
                            + name
                            + " failed"
                            + where
                            + ": "
                            + (e.getMessage() != null ? e.getMessage() : e.toString()));
        }
        List<String> uris = uris(name, answer);
        if (uris.isEmpty()) throw new IOException("protocol " + name + " found nothing for " + arg);
        List<Step> steps = new ArrayList<>(uris.size());
        for (String u : uris) steps.add(new Step(u, org.groovecast.api.Metadata.EMPTY, temporary));
        return steps;
    }

    /**
     * The function's answer; its failure comes here, so that the request says where it failed
     * (rather than the host logging it and answering nothing).
     */
    private Object callRaising(Object... args) {
        return function instanceof ClosureFunction c ? c.callRaising(args) : function.call(args);
    }

    private static List<String> uris(String name, Object answer) throws IOException {
        if (answer == null) return List.of();
        if (answer instanceof CharSequence s)
            return s.isEmpty() ? List.of() : List.of(s.toString());
        if (answer instanceof Iterable<?> list) {
            List<String> out = new ArrayList<>();
            for (Object o : list) {
                if (o instanceof CharSequence s && !s.isEmpty()) out.add(s.toString());
                else if (o != null)
                    throw new IOException(
                            "protocol "
                                    + name
                                    + " answered a list holding "
                                    + o.getClass().getSimpleName()
                                    + " "
                                    + o
                                    + "; expected uris");
            }
            return out;
        }
        throw new IOException(
                "protocol "
                        + name
                        + " answered "
                        + answer.getClass().getSimpleName()
                        + " "
                        + answer
                        + "; expected a uri, a list of uris or null");
    }

    /** An answer that came too late is not played: a temporary protocol's files go at once. */
    private void discard(Object late) {
        if (!temporary) return;
        List<Path> files = new ArrayList<>();
        try {
            for (String u : uris("", late)) {
                Path p = Path.of(u);
                if (p.isAbsolute() && Files.isRegularFile(p)) files.add(p);
            }
        } catch (IOException | RuntimeException notUris) {
            return;
        }
        Resolved.delete(files);
    }
}
