package org.groovecast.ffmpeg.filter;

import static org.bytedeco.ffmpeg.global.avfilter.AV_BUFFERSRC_FLAG_KEEP_REF;
import static org.bytedeco.ffmpeg.global.avfilter.av_buffersink_get_frame;
import static org.bytedeco.ffmpeg.global.avfilter.av_buffersrc_add_frame_flags;
import static org.bytedeco.ffmpeg.global.avutil.AVERROR_EAGAIN;
import static org.bytedeco.ffmpeg.global.avutil.AVERROR_EOF;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_alloc;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_free;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_unref;

import java.io.IOException;
import org.bytedeco.ffmpeg.avfilter.AVFilterContext;
import org.bytedeco.ffmpeg.avutil.AVFrame;
import org.groovecast.api.Frame;
import org.groovecast.api.Image;
import org.groovecast.api.VideoFormat;
import org.groovecast.ffmpeg.shared.Av;
import org.groovecast.ffmpeg.shared.ImageFrame;
import org.groovecast.ffmpeg.shared.Scaler;

/**
 * A libavfilter video graph ({@code negate}, {@code hflip,eq=contrast=1.2}) run on the frames'
 * pictures: each picture goes in through {@code buffer} and the graph's latest picture replaces it,
 * scaled back to the clock's size and yuv420p. Output pictures live in a small pool, valid for a
 * tick, as the frame contract asks. Natives are freed by {@link #close()}.
 */
final class VideoFilter implements AutoCloseable {
    private static final int POOL = 4;

    private final VideoFormat format;
    private FilterGraph graph;
    private AVFilterContext source;
    private AVFilterContext sink;
    private AVFrame filtered;
    private final ImageFrame[] pool = new ImageFrame[POOL];
    private int next;
    private long pts;
    private final Scaler copier = new Scaler(1);

    VideoFilter(String description, VideoFormat format) throws IOException {
        Av.init();
        this.format = format;
        boolean ok = false;
        try {
            graph =
                    new FilterGraph(
                            "",
                            "video_size="
                                    + format.width()
                                    + "x"
                                    + format.height()
                                    + ":pix_fmt=yuv420p:time_base=1/"
                                    + format.frameRate()
                                    + ":pixel_aspect=1/1",
                            description,
                            "scale=" + format.width() + ":" + format.height() + ",format=yuv420p");
            source = graph.source;
            sink = graph.sink;
            filtered = av_frame_alloc();
            for (int i = 0; i < POOL; i++) pool[i] = new ImageFrame(format);
            ok = true;
        } finally {
            if (!ok) close();
        }
    }

    /** Filters the pictures attached to samples [from, to) of {@code frame}, replacing each. */
    void process(Frame frame, int from) throws IOException {
        for (int i = 0; i < frame.imageCount(); i++) {
            if (frame.imagePosition(i) < from) continue;
            Image result = filter(frame.image(i));
            if (result != null) frame.replaceImage(i, result);
        }
    }

    private Image filter(Image picture) throws IOException {
        ImageFrame in = pool[next];
        if (!in.writable()) in = pool[next] = new ImageFrame(format);
        in.image.copyFrom(picture);
        in.frame.pts(pts++);
        // KEEP_REF: the pooled picture stays ours; the graph takes a reference of its own.
        Av.check(
                av_buffersrc_add_frame_flags(source, in.frame, AV_BUFFERSRC_FLAG_KEEP_REF),
                "the video filter refused a picture");
        Image latest = null;
        while (true) {
            int r = av_buffersink_get_frame(sink, filtered);
            if (r == AVERROR_EAGAIN() || r == AVERROR_EOF) break;
            Av.check(r, "video filtering failed");
            try {
                next = (next + 1) % POOL;
                ImageFrame out = pool[next];
                if (!out.writable()) out = pool[next] = new ImageFrame(format);
                copier.scale(filtered, out.frame);
                latest = out.image;
            } finally {
                av_frame_unref(filtered);
            }
        }
        next = (next + 1) % POOL;
        return latest;
    }

    @Override
    public void close() {
        for (ImageFrame f : pool) {
            if (f != null) f.close();
        }
        if (filtered != null) av_frame_free(filtered);
        if (graph != null) graph.close();
        copier.close();
        filtered = null;
        graph = null;
    }
}
