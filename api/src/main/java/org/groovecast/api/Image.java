package org.groovecast.api;

import java.nio.ByteBuffer;

/**
 * One video picture in the clock's {@link VideoFormat}: three planes (Y, U, V) of planar YUV 4:2:0
 * in direct buffers, so that native code (a decoder's scaler, an encoder) reads and writes them
 * without a copy through the Java heap. Plane 0 is {@code width x height}, planes 1 and 2 are half
 * that in each direction; each row is exactly the plane's width long.
 *
 * <p>Images are owned by the operator that made them, which usually keeps a small pool and reuses
 * them: an image attached to a frame stays valid until its producer's next tick. Copy it ({@link
 * #copyFrom}) to keep it longer.
 */
public final class Image {
    private final VideoFormat format;
    private final ByteBuffer[] planes = new ByteBuffer[3];

    /** A new image in direct buffers of its own (contents unspecified: fill it). */
    public Image(VideoFormat format) {
        this.format = format;
        for (int i = 0; i < 3; i++) planes[i] = ByteBuffer.allocateDirect(width(i) * height(i));
    }

    /**
     * An image over existing memory, such as a decoder's frame buffers: each plane must hold at
     * least {@code width(i) * height(i)} bytes, rows packed. The image is valid as long as that
     * memory.
     */
    public Image(VideoFormat format, ByteBuffer y, ByteBuffer u, ByteBuffer v) {
        this.format = format;
        planes[0] = y;
        planes[1] = u;
        planes[2] = v;
        for (int i = 0; i < 3; i++) {
            if (planes[i].capacity() < width(i) * height(i)) {
                throw new IllegalArgumentException(
                        "plane "
                                + i
                                + " holds "
                                + planes[i].capacity()
                                + " bytes, needs "
                                + width(i) * height(i));
            }
        }
    }

    public VideoFormat format() {
        return format;
    }

    /** Bytes per row of plane {@code i} (0 = Y, 1 = U, 2 = V). */
    public int width(int i) {
        return i == 0 ? format.width() : format.width() / 2;
    }

    /** Rows of plane {@code i}. */
    public int height(int i) {
        return i == 0 ? format.height() : format.height() / 2;
    }

    /** Plane {@code i}, positioned at 0 and limited to the plane's size; do not keep the buffer. */
    public ByteBuffer plane(int i) {
        return planes[i].clear().limit(width(i) * height(i));
    }

    /** Paints the whole picture one colour. */
    public Image fill(int y, int u, int v) {
        fill(planes[0], (byte) y);
        fill(planes[1], (byte) u);
        fill(planes[2], (byte) v);
        return this;
    }

    /** Paints the picture black. */
    public Image black() {
        return fill(16, 128, 128);
    }

    private void fill(ByteBuffer b, byte value) {
        for (int i = 0, n = b == planes[0] ? width(0) * height(0) : width(1) * height(1);
                i < n;
                i++) b.put(i, value);
    }

    /** Copies {@code other}'s pixels into this image; both must have the same format. */
    public void copyFrom(Image other) {
        if (!other.format.equals(format))
            throw new IllegalArgumentException(other.format + " is not " + format);
        for (int i = 0; i < 3; i++) planes[i].put(0, other.planes[i], 0, width(i) * height(i));
    }
}
