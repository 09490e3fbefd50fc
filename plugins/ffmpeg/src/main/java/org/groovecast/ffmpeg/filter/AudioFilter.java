package org.groovecast.ffmpeg.filter;

import static org.bytedeco.ffmpeg.global.avfilter.av_buffersink_get_frame;
import static org.bytedeco.ffmpeg.global.avfilter.av_buffersrc_add_frame_flags;
import static org.bytedeco.ffmpeg.global.avutil.AVERROR_EAGAIN;
import static org.bytedeco.ffmpeg.global.avutil.AVERROR_EOF;
import static org.bytedeco.ffmpeg.global.avutil.AV_SAMPLE_FMT_FLTP;
import static org.bytedeco.ffmpeg.global.avutil.av_channel_layout_default;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_alloc;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_free;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_get_buffer;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_unref;

import java.io.IOException;
import java.nio.ByteOrder;
import org.bytedeco.ffmpeg.avfilter.AVFilterContext;
import org.bytedeco.ffmpeg.avutil.AVFrame;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.Frame;
import org.groovecast.ffmpeg.shared.Av;

/**
 * A libavfilter audio graph ({@code acompressor=threshold=-18dB:ratio=4,alimiter=limit=0.9}) run on
 * planar float frames: samples go in through {@code abuffer}, come out of {@code abuffersink} in
 * the same format (an {@code aformat} is appended, so filters that change rate or layout are
 * converted back). What comes out is queued, so a filter with latency delays the stream by that
 * much once, at the start. Natives are freed by {@link #close()}.
 */
final class AudioFilter implements AutoCloseable {
    private final AudioFormat format;
    private FilterGraph graph;
    private AVFilterContext source;
    private AVFilterContext sink;
    private AVFrame in;
    private AVFrame out;
    private float[][] queue;
    private int queued;
    private long pts;

    AudioFilter(String description, AudioFormat format) throws IOException {
        Av.init();
        this.format = format;
        boolean ok = false;
        try {
            String layout =
                    format.channels() == 1
                            ? "mono"
                            : format.channels() == 2 ? "stereo" : format.channels() + "c";
            graph =
                    new FilterGraph(
                            "a",
                            "time_base=1/"
                                    + format.sampleRate()
                                    + ":sample_rate="
                                    + format.sampleRate()
                                    + ":sample_fmt=fltp:channel_layout="
                                    + layout,
                            description,
                            "aformat=sample_fmts=fltp:sample_rates="
                                    + format.sampleRate()
                                    + ":channel_layouts="
                                    + layout);
            source = graph.source;
            sink = graph.sink;
            in = av_frame_alloc();
            out = av_frame_alloc();
            queue = new float[format.channels()][4096];
            ok = true;
        } finally {
            if (!ok) close();
        }
    }

    /** Runs samples [from, to) of {@code frame} through the graph, in place. */
    void process(Frame frame, int from, int to) throws IOException {
        int n = to - from;
        if (n <= 0) return;
        in.nb_samples(n).format(AV_SAMPLE_FMT_FLTP).sample_rate(format.sampleRate());
        av_channel_layout_default(in.ch_layout(), format.channels());
        Av.check(av_frame_get_buffer(in, 0), "cannot allocate filter input");
        float[][] pcm = frame.pcm();
        for (int c = 0; c < pcm.length; c++) {
            in.data(c)
                    .capacity(n * 4L)
                    .asByteBuffer()
                    .order(ByteOrder.nativeOrder())
                    .asFloatBuffer()
                    .put(pcm[c], from, n);
        }
        in.pts(pts);
        pts += n;
        Av.check(av_buffersrc_add_frame_flags(source, in, 0), "the filter refused a frame");
        av_frame_unref(in);
        while (true) {
            int r = av_buffersink_get_frame(sink, out);
            if (r == AVERROR_EAGAIN() || r == AVERROR_EOF) break;
            Av.check(r, "filtering failed");
            try {
                append(out);
            } finally {
                av_frame_unref(out);
            }
        }
        // A filter with latency has not given everything back yet: its delay goes in front, once.
        int have = Math.min(queued, n);
        int lead = n - have;
        for (int c = 0; c < pcm.length; c++) {
            java.util.Arrays.fill(pcm[c], from, from + lead, 0f);
            System.arraycopy(queue[c], 0, pcm[c], from + lead, have);
            System.arraycopy(queue[c], have, queue[c], 0, queued - have);
        }
        queued -= have;
    }

    private void append(AVFrame f) {
        int n = f.nb_samples();
        if (queued + n > queue[0].length) {
            for (int c = 0; c < queue.length; c++)
                queue[c] =
                        java.util.Arrays.copyOf(
                                queue[c], Math.max(2 * queue[c].length, queued + n));
        }
        for (int c = 0; c < queue.length; c++) {
            f.data(c)
                    .capacity(n * 4L)
                    .asByteBuffer()
                    .order(ByteOrder.nativeOrder())
                    .asFloatBuffer()
                    .get(queue[c], queued, n);
        }
        queued += n;
    }

    @Override
    public void close() {
        if (in != null) av_frame_free(in);
        if (out != null) av_frame_free(out);
        if (graph != null) graph.close();
        in = null;
        out = null;
        graph = null;
    }
}
