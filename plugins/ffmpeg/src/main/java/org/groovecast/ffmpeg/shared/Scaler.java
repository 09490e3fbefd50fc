package org.groovecast.ffmpeg.shared;

import static org.bytedeco.ffmpeg.global.swscale.SWS_BILINEAR;
import static org.bytedeco.ffmpeg.global.swscale.sws_alloc_context;
import static org.bytedeco.ffmpeg.global.swscale.sws_free_context;
import static org.bytedeco.ffmpeg.global.swscale.sws_init_context;
import static org.bytedeco.ffmpeg.global.swscale.sws_scale_frame;

import java.io.IOException;
import org.bytedeco.ffmpeg.avutil.AVFrame;
import org.bytedeco.ffmpeg.swscale.SwsContext;
import org.bytedeco.ffmpeg.swscale.SwsFilter;

/**
 * Size and pixel-format conversion through swscale, set up again only when the input's geometry
 * changes. Runs on {@code settings.ffmpeg.scalingThreads} threads (slice threading of {@code
 * sws_scale_frame}; 0 lets swscale use one per core).
 */
public final class Scaler implements AutoCloseable {
    private final int threads;
    private SwsContext sws;
    private int srcW = -1;
    private int srcH;
    private int srcFormat;
    private int dstW;
    private int dstH;
    private int dstFormat;

    public Scaler(int threads) {
        this.threads = threads;
    }

    /** Scales {@code src} into {@code dst}, whose width, height, format and planes are set. */
    public void scale(AVFrame src, AVFrame dst) throws IOException {
        if (sws == null
                || src.width() != srcW
                || src.height() != srcH
                || src.format() != srcFormat
                || dst.width() != dstW
                || dst.height() != dstH
                || dst.format() != dstFormat) {
            setUp(src, dst);
        }
        Av.check(sws_scale_frame(sws, dst, src), "cannot scale a picture");
    }

    private void setUp(AVFrame src, AVFrame dst) throws IOException {
        free();
        srcW = src.width();
        srcH = src.height();
        srcFormat = src.format();
        dstW = dst.width();
        dstH = dst.height();
        dstFormat = dst.format();
        sws = sws_alloc_context();
        if (sws == null || sws.isNull()) throw new IOException("cannot allocate a scaler");
        sws.src_w(srcW)
                .src_h(srcH)
                .src_format(srcFormat)
                .dst_w(dstW)
                .dst_h(dstH)
                .dst_format(dstFormat)
                .flags(SWS_BILINEAR)
                .threads(threads);
        Av.check(
                sws_init_context(sws, (SwsFilter) null, (SwsFilter) null),
                "cannot scale " + srcW + "x" + srcH + " pictures to " + dstW + "x" + dstH);
    }

    private void free() {
        if (sws != null) sws_free_context(sws);
        sws = null;
    }

    @Override
    public void close() {
        free();
    }
}
