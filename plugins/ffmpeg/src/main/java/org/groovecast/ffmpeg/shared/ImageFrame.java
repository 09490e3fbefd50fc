package org.groovecast.ffmpeg.shared;

import static org.bytedeco.ffmpeg.global.avutil.AV_PIX_FMT_YUV420P;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_alloc;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_free;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_get_buffer;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_is_writable;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.bytedeco.ffmpeg.avutil.AVFrame;
import org.groovecast.api.Image;
import org.groovecast.api.VideoFormat;

/**
 * A reference-counted yuv420p AVFrame and an {@link Image} over its buffers: the scaler writes into
 * the image and encoders take references to it, with no copy in between. Freed by {@link #close()}.
 */
public final class ImageFrame implements AutoCloseable {
    public final Image image;
    public final AVFrame frame;

    /** Track position (samples) where the picture starts to show. */
    public long position;

    /** Clock tick in which the image was last handed to a frame. */
    public long shownAt = -1;

    public ImageFrame(VideoFormat format) throws IOException {
        frame = av_frame_alloc();
        frame.width(format.width()).height(format.height()).format(AV_PIX_FMT_YUV420P);
        try {
            // Alignment 1: rows packed, as Image defines them.
            Av.check(av_frame_get_buffer(frame, 1), "cannot allocate a picture");
            ByteBuffer[] planes = new ByteBuffer[3];
            for (int i = 0; i < 3; i++) {
                int rows = i == 0 ? format.height() : format.height() / 2;
                int width = i == 0 ? format.width() : format.width() / 2;
                if (frame.linesize(i) != width)
                    throw new IOException("unexpected row padding in a picture");
                planes[i] = frame.data(i).capacity((long) width * rows).asByteBuffer();
            }
            image = new Image(format, planes[0], planes[1], planes[2]).black();
        } catch (IOException | RuntimeException e) {
            av_frame_free(frame);
            throw e;
        }
    }

    /**
     * Whether nobody else (an encoder) holds a reference to the buffers, so they can be written.
     */
    public boolean writable() {
        return av_frame_is_writable(frame) != 0;
    }

    @Override
    public void close() {
        av_frame_free(frame);
    }
}
