package org.groovecast.ffmpeg.filter;

import static org.groovecast.api.ValueType.SOURCE;
import static org.groovecast.api.ValueType.STRING;

import java.util.List;
import org.groovecast.api.OperatorProvider;
import org.groovecast.api.OperatorSpec;
import org.groovecast.api.ScriptException;
import org.pf4j.Extension;

/**
 * libavfilter: {@code ffmpeg.filter(s, graph)} with any audio graph, and a video graph beside it.
 */
@Extension
public final class FilterOperators implements OperatorProvider {
    @Override
    public List<OperatorSpec> operators() {
        return List.of(
                OperatorSpec.named("ffmpeg.filter")
                        .doc(
                                "Runs any libavfilter audio graph: ffmpeg.filter(s, 'acompressor=threshold=-18dB:ratio=4,alimiter=limit=0.9').")
                        .positional("source", SOURCE, "the source")
                        .positional(
                                "graph",
                                STRING,
                                null,
                                "the audio filter graph, as ffmpeg's -af takes it")
                        .named(
                                "video",
                                STRING,
                                null,
                                "a video filter graph, as -vf takes it, for the pictures")
                        .returns(SOURCE)
                        .create(
                                a -> {
                                    String graph = a.string("graph");
                                    String video = a.string("video");
                                    if (graph == null && video == null)
                                        throw new ScriptException(
                                                "ffmpeg.filter(): give an audio graph, video:, or both");
                                    // Built once here, so that a misspelt filter or option is a
                                    // script error with its line.
                                    try {
                                        if (graph != null)
                                            new AudioFilter(
                                                            graph,
                                                            org.groovecast.api.AudioFormat.DEFAULT)
                                                    .close();
                                        if (video != null)
                                            new VideoFilter(
                                                            video,
                                                            org.groovecast.api.VideoFormat.DEFAULT)
                                                    .close();
                                        return new FilterSource(a.source("source"), graph, video);
                                    } catch (java.io.IOException e) {
                                        throw new ScriptException(
                                                "ffmpeg.filter(): " + e.getMessage());
                                    }
                                }));
    }
}
