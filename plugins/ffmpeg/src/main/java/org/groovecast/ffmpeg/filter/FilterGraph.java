package org.groovecast.ffmpeg.filter;

import static org.bytedeco.ffmpeg.global.avfilter.avfilter_get_by_name;
import static org.bytedeco.ffmpeg.global.avfilter.avfilter_graph_alloc;
import static org.bytedeco.ffmpeg.global.avfilter.avfilter_graph_config;
import static org.bytedeco.ffmpeg.global.avfilter.avfilter_graph_create_filter;
import static org.bytedeco.ffmpeg.global.avfilter.avfilter_graph_free;
import static org.bytedeco.ffmpeg.global.avfilter.avfilter_graph_parse_ptr;
import static org.bytedeco.ffmpeg.global.avfilter.avfilter_inout_alloc;
import static org.bytedeco.ffmpeg.global.avfilter.avfilter_inout_free;
import static org.bytedeco.ffmpeg.global.avutil.av_strdup;

import java.io.IOException;
import org.bytedeco.ffmpeg.avfilter.AVFilterContext;
import org.bytedeco.ffmpeg.avfilter.AVFilterGraph;
import org.bytedeco.ffmpeg.avfilter.AVFilterInOut;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;
import org.groovecast.ffmpeg.shared.Av;

/**
 * A libavfilter graph between one buffer source and one buffer sink, as the audio and video filters
 * both need it: the script's description, plus a tail that brings the output back to the stream's
 * format. Freed by {@link #close()}.
 */
final class FilterGraph implements AutoCloseable {
    private AVFilterGraph graph;
    final AVFilterContext source = new AVFilterContext(null);
    final AVFilterContext sink = new AVFilterContext(null);

    /**
     * @param kind "a" for audio ({@code abuffer}/{@code abuffersink}), "" for video
     * @param sourceArgs the buffer source's parameters (format, rate or size, time base)
     * @param tail filters appended to the description, after a comma
     */
    FilterGraph(String kind, String sourceArgs, String description, String tail)
            throws IOException {
        Av.init();
        boolean ok = false;
        AVFilterInOut outputs = avfilter_inout_alloc();
        AVFilterInOut inputs = avfilter_inout_alloc();
        try {
            graph = avfilter_graph_alloc();
            Av.check(
                    avfilter_graph_create_filter(
                            source,
                            avfilter_get_by_name(kind + "buffer"),
                            "in",
                            sourceArgs,
                            (Pointer) null,
                            graph),
                    "cannot create the filter input");
            Av.check(
                    avfilter_graph_create_filter(
                            sink,
                            avfilter_get_by_name(kind + "buffersink"),
                            "out",
                            null,
                            (Pointer) null,
                            graph),
                    "cannot create the filter output");
            try (BytePointer inName = new BytePointer("in");
                    BytePointer outName = new BytePointer("out")) {
                // strdup'd: the graph frees these names with the in/out lists
                outputs.name(av_strdup(inName)).filter_ctx(source).pad_idx(0).next(null);
                inputs.name(av_strdup(outName)).filter_ctx(sink).pad_idx(0).next(null);
            }
            Av.check(
                    avfilter_graph_parse_ptr(
                            graph, description + "," + tail, inputs, outputs, null),
                    "cannot parse '" + description + "'");
            Av.check(avfilter_graph_config(graph, null), "cannot set up '" + description + "'");
            ok = true;
        } finally {
            avfilter_inout_free(inputs);
            avfilter_inout_free(outputs);
            if (!ok) close();
        }
    }

    @Override
    public void close() {
        if (graph != null) avfilter_graph_free(graph);
        graph = null;
    }
}
