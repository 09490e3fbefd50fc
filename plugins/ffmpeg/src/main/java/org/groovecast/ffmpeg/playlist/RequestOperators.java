package org.groovecast.ffmpeg.playlist;

import static org.groovecast.api.ValueType.ANY;
import static org.groovecast.api.ValueType.FUNCTION;
import static org.groovecast.api.ValueType.INTEGER;
import static org.groovecast.api.ValueType.LIST;
import static org.groovecast.api.ValueType.NUMBER;
import static org.groovecast.api.ValueType.STRING;

import java.nio.file.Path;
import java.util.List;
import org.groovecast.api.Arguments;
import org.groovecast.api.OperatorProvider;
import org.groovecast.api.OperatorSpec;
import org.groovecast.api.ScriptException;
import org.groovecast.api.Source;
import org.pf4j.Extension;

/** Sources that play files: single, playlist, request.queue, request.dynamic. */
@Extension
public final class RequestOperators implements OperatorProvider {
    @Override
    public List<OperatorSpec> operators() {
        return List.of(
                OperatorSpec.named("single")
                        .doc("One file, played again and again; checked when the script loads.")
                        .positional(
                                "uri",
                                STRING,
                                "the file or request uri (annotate:, protocols), resolved at load")
                        .create(a -> Single.of(a.string("uri"), a.requests())),
                OperatorSpec.named("playlist")
                        .doc("The files of a directory, an .m3u/.pls file or a list.")
                        .named(
                                "mode",
                                STRING,
                                "randomize",
                                "'randomize' (shuffled each round), 'normal' or 'random'")
                        .named(
                                "reload",
                                NUMBER,
                                0.0,
                                "seconds ('seconds') or rounds ('rounds') between reloads")
                        .named(
                                "reloadMode",
                                STRING,
                                "seconds",
                                "'never', 'seconds', 'rounds' or 'watch'")
                        .named("prefetch", INTEGER, 1, "tracks opened ahead of time")
                        .positional("uri", ANY, "a directory, a playlist file, or a list of files")
                        .create(RequestOperators::playlist),
                OperatorSpec.named("request.queue")
                        .doc("Plays what is pushed to it: def rid = q.push('file.mp3').")
                        .named("queue", LIST, List.of(), "requests to start with")
                        .named("prefetch", INTEGER, 1, "tracks opened ahead of time")
                        .named(
                                "timeout",
                                NUMBER,
                                0.0,
                                "seconds each request's resolution may take; 0 for settings.request.timeout")
                        .method("push", "push(uri): adds a request at the end; returns its id")
                        .method("queue", "queue(): the requests waiting, each with rid and uri")
                        .method(
                                "remove",
                                "remove(rid): takes a request out before it plays; false if none waits with that id")
                        .method(
                                "flush",
                                "flush(): empties the queue; returns how many requests it dropped")
                        .method(
                                "flushAndSkip",
                                "flushAndSkip(): empties the queue and ends the track playing")
                        .create(
                                a ->
                                        new RequestQueue(
                                                a.list("queue").stream()
                                                        .map(String::valueOf)
                                                        .toList(),
                                                a.integer("prefetch"),
                                                seconds(a, "timeout"),
                                                a.requests())),
                OperatorSpec.named("request.dynamic")
                        .doc(
                                "Asks a function for each next track: request.dynamic { -> nextUri() }.")
                        .named("prefetch", INTEGER, 1, "tracks opened ahead of time")
                        .named(
                                "timeout",
                                NUMBER,
                                0.0,
                                "seconds the function, then the resolution of its answer, may "
                                        + "take; 0 for settings.request.timeout")
                        .named(
                                "retryDelay",
                                NUMBER,
                                1.0,
                                "seconds before asking again after null, a failure or a timeout")
                        .positional("next", FUNCTION, "returns the next uri, or null for none now")
                        .calls()
                        .create(
                                a ->
                                        new DynamicRequests(
                                                a.function("next"),
                                                a.integer("prefetch"),
                                                seconds(a, "timeout"),
                                                seconds(a, "retryDelay"),
                                                a.requests())));
    }

    private static Source playlist(Arguments a) {
        Object uri = a.value("uri");
        Playlist.Mode mode = Playlist.mode(a.string("mode"));
        Playlist.ReloadMode reloadMode = Playlist.reloadMode(a.string("reloadMode"));
        if (a.given("reloadMode")
                && !a.given("reload")
                && reloadMode == Playlist.ReloadMode.ROUNDS) {
            // 'rounds' without a count: reload after every round
        } else if (reloadMode == Playlist.ReloadMode.SECONDS && a.number("reload") <= 0) {
            reloadMode = Playlist.ReloadMode.NEVER;
        }
        int prefetch = a.integer("prefetch");
        if (uri instanceof List<?> list) {
            return new Playlist(
                    null,
                    list.stream().map(String::valueOf).toList(),
                    mode,
                    Playlist.ReloadMode.NEVER,
                    0,
                    prefetch,
                    a.requests());
        }
        if (!(uri instanceof CharSequence s)) {
            throw new ScriptException("playlist() expects a path or a list of files, got " + uri);
        }
        return new Playlist(
                Path.of(s.toString()),
                null,
                mode,
                reloadMode,
                a.number("reload"),
                prefetch,
                a.requests());
    }

    /** A duration in seconds, which must not be negative. */
    private static double seconds(Arguments a, String name) {
        double s = a.number(name);
        if (s < 0 || Double.isNaN(s))
            throw new ScriptException(a.operator() + "(): " + name + " must be >= 0, got " + s);
        return s;
    }
}
