package org.groovecast.liquidsoap.engine;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.groovecast.api.Source;
import org.groovecast.liquidsoap.eval.Builtin;
import org.groovecast.liquidsoap.eval.Call;
import org.groovecast.liquidsoap.eval.Errors;
import org.groovecast.liquidsoap.eval.Fn;
import org.groovecast.liquidsoap.eval.Parameter;
import org.groovecast.liquidsoap.eval.Rec;
import org.groovecast.liquidsoap.eval.Values;
import org.groovecast.liquidsoap.prelude.Library;
import org.groovecast.liquidsoap.syntax.Span;

/**
 * Liquidsoap's functions on sources and requests that are not operators of the engine: {@code
 * source.skip(s)}, {@code source.on_metadata(s, f)}, {@code source.methods(s)}, {@code
 * request.create(uri)}, {@code drop_metadata(s)}... written over the sources' methods ({@link
 * SourceFields}) and the operators.
 */
final class EngineFunctions {
    private EngineFunctions() {}

    static void register(Library lib, SourceFields fields) {
        for (String[] m :
                new String[][] {
                    {"skip", "unit"},
                    {"id", "string"},
                    {"is_ready", "bool"},
                    {"is_active", "bool"},
                    {"last_metadata", "[(string * string)]?"},
                    {"remaining", "float"},
                    {"elapsed", "float"}
                }) {
            lib.function(
                    "source." + m[0],
                    "(source('a)) -> " + m[1],
                    "s." + m[0] + "(), as a function of the source.",
                    a -> fields.call(source(a.get(0)), m[0], Call.of(a.at())));
        }
        lib.function(
                "source.fallible",
                "(source('a)) -> bool",
                "s.fallible, as a function of the source.",
                a -> source(a.get(0)).isFallible());
        for (String m : List.of("on_metadata", "on_track")) {
            lib.function(
                    "source." + m,
                    "(?synchronous : bool, source('a), ([(string * string)]) -> unit) -> {release :"
                            + " () -> unit}",
                    "s." + m + "(synchronous=..., f), as a function of the source.",
                    Map.of("synchronous", true),
                    a ->
                            fields.call(
                                    source(a.get(1)),
                                    m,
                                    Call.at(a.at())
                                            .arg("synchronous", a.get(0))
                                            .arg(a.get(2))
                                            .build()));
        }
        lib.function(
                "source.methods",
                "(source('a)) -> source('a).{" + SourceFields.METHODS_TYPE + "}",
                "A source with its methods (they always are, here).",
                a -> a.get(0));
        lib.function(
                "source.tracks",
                "(source('a)) -> 'a.{metadata : metadata, track_marks : track_marks}",
                "A source's tracks, typed as Liquidsoap's (audio, video, metadata, track marks):"
                        + " Groovecast's sources carry them together, so each is the source itself.",
                a -> {
                    Map<String, Object> f = new LinkedHashMap<>();
                    f.put("audio", a.get(0));
                    f.put("metadata", a.get(0));
                    f.put("track_marks", a.get(0));
                    return Rec.record(f);
                });
        lib.function(
                "request.create",
                "(?resolve_metadata : bool, ?cue_in_metadata : string?, ?cue_out_metadata : string?, ?persistent : bool, ?temporary : bool, ?excluded_metadata_resolvers : [string], string) -> request",
                "A request for a URI (the engine resolves it where it plays).",
                a -> new LiqRequest(a.string(6)));
        lib.function(
                "request.uri",
                "(request) -> string",
                "A request's URI.",
                a -> ((LiqRequest) Values.base(a.get(0))).uri());
        lib.function(
                "insert_metadata",
                "(?id : string?, source('a)) -> source('a)",
                "The source itself: every source takes s.insert_metadata(m) here.",
                a -> a.get(1));
        Object map = lib.entry("metadata.map") == null ? null : lib.entry("metadata.map").value();
        Fn metadataMap = map instanceof Fn f ? f : null;
        lib.function(
                "source",
                "(?id : string?, 'a.{track_marks? : track_marks, metadata? : metadata}) ->"
                        + " source('a).{"
                        + SourceFields.METHODS_TYPE
                        + "} where 'a is a set of tracks to be muxed into a source",
                "A source from its tracks: its audio's source, without metadata when the tracks"
                        + " have none (let {metadata=_, ...rest} = source.tracks(s)).",
                a -> {
                    Map<String, Object> tracks = Values.fields(a.get(1));
                    Object audio = tracks.get("audio");
                    if (audio == null)
                        throw Errors.invalid("source(...) needs an audio track here");
                    // AzuraCast's drop_metadata is written this way: the tracks less their
                    // metadata make a source whose tracks carry none
                    if (!tracks.containsKey("metadata") && metadataMap != null)
                        return dropMetadata(metadataMap, a.at(), audio);
                    return audio;
                });
        if (metadataMap != null) {
            lib.function(
                    "drop_metadata",
                    "(?id : string?, source('a)) -> source('a)",
                    "The source without its metadata.",
                    a -> dropMetadata(metadataMap, a.at(), a.get(1)));
        }
    }

    private static Object dropMetadata(Fn metadataMap, Span at, Object source) {
        return metadataMap.apply(
                Call.at(at)
                        .arg("update", false)
                        .arg("strip", true)
                        .arg(Builtin.of("drop", List.of(Parameter.positional()), x -> List.of()))
                        .arg(source)
                        .build());
    }

    private static Source source(Object v) {
        if (Values.base(v) instanceof Source s) return s;
        throw Errors.invalid("expected a source, got " + Values.describe(v));
    }
}
