package org.groovecast.liquidsoap.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.groovecast.host.script.ScriptError;
import org.groovecast.host.script.ScriptFrontEnd;
import org.junit.jupiter.api.Test;

/**
 * A station's script is type-checked as Liquidsoap checks it before anything runs, against the
 * station's own library (the shipped plugins' operators included): one located message per refusal,
 * Liquidsoap's words.
 */
class StationTypeCheckTest {
    private static ScriptFrontEnd.Script load(String text) {
        return new LiquidsoapFrontEnd()
                .load(
                        "station.liq",
                        text,
                        ShippedStation.functions(),
                        RepositoryScriptsTest.NO_SETTINGS);
    }

    private static String refusal(String text) {
        String m = assertThrows(ScriptError.class, () -> load(text)).getMessage();
        assertEquals(1, m.lines().count(), m);
        return m;
    }

    @Test
    void anIntWhereAFloatGoesIsRefused() {
        assertEquals(
                "station.liq:1:28: this value has type int but it should be a subtype of float",
                refusal("output.dummy(sine(amplitude=1, 440.))"));
    }

    @Test
    void aStringWhereANumberGoesIsRefused() {
        assertEquals(
                "station.liq:1:8: this value has type string but it should be a subtype of int",
                refusal("x = 1 + \"a\"\noutput.dummy(sine())"));
    }

    @Test
    void aMissingArgumentIsRefused() {
        assertEquals(
                "station.liq:1:13: Missing arguments in function application: source('A).",
                refusal("output.dummy(amplify(0.5))"));
    }

    @Test
    void aWrongLabelIsRefused() {
        assertEquals(
                "station.liq:2:20: Cannot apply that parameter because the function at"
                        + " station.liq:2:13 has no argument labeled \"gian\"! Did you mean"
                        + " \"gain\"?",
                refusal(
                        "def f(~gain, s) = amplify(gain, s) end\noutput.dummy(f(gian=0.5,"
                                + " sine()))"));
    }

    @Test
    void anUnknownFieldIsRefused() {
        assertEquals(
                "station.liq:2:6: this value has no method `artist`. Its type is {title : string}.",
                refusal("r = {title = \"a\"}\nprint(r.artist)\noutput.dummy(sine())"));
    }

    @Test
    void aMonoSourceIntoAStereoEncoderIsRefused() {
        assertEquals(
                "station.liq:2:35: this value has type source(audio=pcm(mono), _) but it should be a"
                        + " subtype of source(audio=pcm(stereo), _)",
                refusal(
                        "def mono(s) = (s : source(audio=pcm(mono))) end\n"
                                + "output.file(%wav(stereo), \"x.wav\", mono(sine()))"));
    }

    @Test
    void aCallbackWithoutSynchronousIsRefusedAsLiquidsoapRefusesIt() {
        assertEquals(
                "station.liq:2:0: Missing arguments in function application: synchronous : bool.",
                refusal("s = sine()\ns.on_track(fun (_) -> ())\noutput.dummy(s)"));
    }

    @Test
    void aCallbackOfTheWrongShapeIsRefused() {
        assertEquals(
                "station.liq:2:32: this value has type (int, ...) -> _ but it should be a subtype of"
                        + " ([_], ...) -> _",
                refusal(
                        "s = sine()\ns.on_metadata(synchronous=true, fun (m) -> m + 1)\noutput.dummy(s)"));
    }

    @Test
    void liquidsoapsTypesOfTracksInteractiveValuesAndErrorsPass() {
        // each was refused before its type was made Liquidsoap's
        load(
                """
                s = sine()
                let {audio, metadata, track_marks} = source.tracks(s)
                t = source(id="t", {audio=audio, metadata=metadata, track_marks=track_marks})
                v = interactive.float("volume", osc="/volume", unit="dB", 1.)
                v.remove()
                i = interactive.bool("on", true)
                print(i())
                try
                  error.raise(error.register("mine"), "x")
                catch e do
                  list.iter(fun (p) -> print("#{p.filename}:#{p.lstart} #{p.to_string()}"), e.trace)
                end
                output.dummy(amplify(v(), t))
                """);
    }

    @Test
    void anOutputIsUnitWithMethodsAsInLiquidsoap() {
        // a statement, the body of a function list.iter calls, the branch of an if without else
        load(
                """
                list.iter(fun (f) -> output.file(%wav, f, sine()), ["/tmp/a.wav"])
                if false then output.file(%ffmpeg(%audio(channel_layout=5.1)), "", sine()) end
                o = output.dummy(sine())
                print(o.id())
                """);
    }

    /** Functions written after the checker was wired in are typed, engine-side ones included. */
    @Test
    void theLibraryFunctionsOfIssue25CheckAsLiquidsoapScriptsUseThem() {
        load(
                """
                v = interactive.float("v", 1.)
                interactive.save("/tmp/interactive.json")
                interactive.load("/tmp/interactive.json")
                cron.add("0 * * * *", fun () -> print("hour"))
                thread.when(every=1., {v() > 2.}, fun () -> print("loud"))
                print(string.getter.flush(string.getter.single("a")))
                print(metadata.json.stringify([("title", "a")]))
                print(process.read.lines("echo a"))
                w = file.watch("/tmp", fun () -> ())
                w.unwatch()
                output.dummy(sine())
                """);
    }

    @Test
    void aFieldOfALibraryFunctionThatGroovecastLacksIsAnUnknownName() {
        assertEquals(
                "station.liq:1:4: unknown function playlist.files",
                refusal("x = playlist.files(\"a.m3u\")\noutput.dummy(sine())"));
    }

    @Test
    void aGoodStationPasses() {
        load(
                """
                settings.frame.duration := 0.02
                settings.server.telnet := true
                settings.not_in_groovecast.x := 3
                def louder(~by=0.1, s) = amplify(1. + by, s) end
                music = louder(by=0.2, mksafe(playlist(mode="randomize", "/music")))
                jingles = playlist("/jingles")
                radio = fallback(track_sensitive=false, [switch([({ 0m }, jingles)]), music])
                radio.on_metadata(synchronous=false, fun (m) -> log.info("now: #{m['title']}"))
                radio = crossfade(duration=2., radio)
                q = request.queue()
                server.register("push", fun (uri) -> begin q.push(request.create(uri)); "ok" end)
                output.file(%wav, {"/tmp/x.wav"}, fallback([q, radio]))
                """);
    }

    @Test
    void sourceAvailableAndCrossSimpleAreThereAsLiquidsoap245HasThem() {
        load(
                """
                loading = ref(false)
                startup = source.available(blank(duration=120.), predicate.activates({loading()}))
                radio = fallback(track_sensitive=false, [startup, sine()])
                def transition(old, new) =
                  list.iter(fun (m) -> log.info("#{fst(m)}"), metadata.cover.remove(old.metadata))
                  cross.simple(old.source, new.source, fade_in=2., fade_out=2.)
                end
                radio = cross(duration=3., transition, radio)
                output.dummy(mksafe(source.available(track_sensitive=true, radio, {true})))
                """);
    }

    @Test
    void harborConnectionCallbacksAreMethodsWithSynchronous() {
        load(
                """
                def connected(headers) = log.info("DJ with #{list.length(headers)} headers") end
                def disconnected() = log.info("DJ gone") end
                live = input.harbor("live", port=8005, password="x")
                live.on_connect(synchronous=false, connected)
                live.on_disconnect(synchronous=false, disconnected)
                live.on_connect(synchronous=true, fun (_) -> ())
                output.dummy(mksafe(live))
                """);
    }
}
