package org.groovecast.api;

import java.util.Arrays;

/**
 * One clock period of stream: {@link #size()} samples of planar float PCM, filled from position 0
 * by successive {@link Source#get} calls.
 *
 * <p>Each {@code get} appends one <em>break</em> at the position it reached. A break before {@link
 * #size()} means the source's track ended there; the next {@code get} starts a new track. Metadata
 * is attached at sample positions. A frame is owned by one consumer and reused every tick, so
 * nothing here allocates once the arrays have grown to their working size.
 *
 * <p>Besides PCM a frame can carry encoded packets ({@link #addEncoded}), so that one encode can
 * feed several outputs. Packets are opaque to the engine: the operator that encoded them defines
 * their type, owns them, and keeps them valid until its next tick. Video travels the same way:
 * {@link Image}s attached at the sample position where each picture starts to show, owned by the
 * operator that made them. A frame without images carries no new picture; an encoder then keeps
 * showing the last one.
 */
public final class Frame {
    private final AudioFormat format;
    private final float[][] pcm;
    private final int size;
    private int end;
    private int position;
    private int[] breaks = new int[4];
    private int breakCount;
    private int[] metadataPositions = new int[2];
    private Metadata[] metadata = new Metadata[2];
    private int metadataCount;
    private int[] encodedPositions = new int[4];
    private Object[] encoded = new Object[4];
    private int encodedCount;
    private int[] imagePositions = new int[2];
    private Image[] images = new Image[2];
    private int imageCount;

    public Frame(AudioFormat format, int size) {
        if (size <= 0)
            throw new IllegalArgumentException("frame size must be positive, got " + size);
        this.format = format;
        this.size = size;
        this.end = size;
        this.pcm = new float[format.channels()][size];
    }

    public AudioFormat format() {
        return format;
    }

    /** Samples per channel in a full frame. */
    public int size() {
        return size;
    }

    /**
     * Where the current {@code get} must stop: {@link #size()}, unless an operator limited it to
     * cut its input short (see {@link #limit}). Generators write in [position, end).
     */
    public int end() {
        return end;
    }

    /**
     * Makes the frame end at {@code newEnd} for the gets that follow, so that an input fills only
     * up to a cut; reaching a limit is not a track end. Returns the previous end, to restore it.
     */
    public int limit(int newEnd) {
        if (newEnd < position || newEnd > size) {
            throw new IllegalArgumentException(
                    "limit " + newEnd + " outside [" + position + ", " + size + "]");
        }
        int old = end;
        end = newEnd;
        return old;
    }

    /** Samples filled so far; the next {@code get} writes from here. */
    public int position() {
        return position;
    }

    /** Samples left to fill. */
    public int free() {
        return end - position;
    }

    /** True when the position reached the end (the limit, if one is set). */
    public boolean isFull() {
        return position == end;
    }

    /** The planes, one per channel, each {@link #size()} long. Write only in [position, size). */
    public float[][] pcm() {
        return pcm;
    }

    public float[] channel(int c) {
        return pcm[c];
    }

    /** Declares that {@code samples} more samples were written at {@link #position()}. */
    public void advance(int samples) {
        if (samples < 0 || samples > end - position) {
            throw new IllegalArgumentException(
                    "cannot advance " + samples + " at " + position + " of " + end);
        }
        position += samples;
    }

    /** Writes silence for {@code samples} samples from the current position and advances. */
    public void silence(int samples) {
        int end = position + samples;
        for (float[] plane : pcm) Arrays.fill(plane, position, end, 0f);
        advance(samples);
    }

    /** Attaches metadata at sample {@code pos} (usually {@link #position()}). */
    public void addMetadata(int pos, Metadata m) {
        if (metadataCount == metadata.length) {
            metadata = Arrays.copyOf(metadata, metadataCount * 2);
            metadataPositions = Arrays.copyOf(metadataPositions, metadataCount * 2);
        }
        metadataPositions[metadataCount] = pos;
        metadata[metadataCount++] = m;
    }

    /** Attaches an encoded packet, produced from the samples at {@code pos}. */
    public void addEncoded(int pos, Object packet) {
        if (encodedCount == encoded.length) {
            encoded = Arrays.copyOf(encoded, encodedCount * 2);
            encodedPositions = Arrays.copyOf(encodedPositions, encodedCount * 2);
        }
        encodedPositions[encodedCount] = pos;
        encoded[encodedCount++] = packet;
    }

    public int encodedCount() {
        return encodedCount;
    }

    public Object encoded(int i) {
        return encoded[i];
    }

    public int encodedPosition(int i) {
        return encodedPositions[i];
    }

    /**
     * Attaches a picture that shows from sample {@code pos} on (see {@link Image} for ownership).
     */
    public void addImage(int pos, Image image) {
        if (imageCount == images.length) {
            images = Arrays.copyOf(images, imageCount * 2);
            imagePositions = Arrays.copyOf(imagePositions, imageCount * 2);
        }
        imagePositions[imageCount] = pos;
        images[imageCount++] = image;
    }

    /** Replaces picture {@code i} (a filter's output for it), at the same position. */
    public void replaceImage(int i, Image image) {
        if (i < 0 || i >= imageCount) throw new IndexOutOfBoundsException(i);
        images[i] = image;
    }

    public int imageCount() {
        return imageCount;
    }

    public Image image(int i) {
        return images[i];
    }

    public int imagePosition(int i) {
        return imagePositions[i];
    }

    /**
     * Drops metadata entries from index {@code count} on, so an operator can rewrite what its input
     * added.
     */
    public void truncateMetadata(int count) {
        for (int i = count; i < metadataCount; i++) metadata[i] = null;
        metadataCount = Math.min(metadataCount, count);
    }

    public int metadataCount() {
        return metadataCount;
    }

    public int metadataPosition(int i) {
        return metadataPositions[i];
    }

    public Metadata metadata(int i) {
        return metadata[i];
    }

    /** Records the end of one {@code get}; called by {@link Source#get}, not by operators. */
    void addBreak() {
        if (breakCount == breaks.length) breaks = Arrays.copyOf(breaks, breakCount * 2);
        breaks[breakCount++] = position;
    }

    public int breakCount() {
        return breakCount;
    }

    public int breakPosition(int i) {
        return breaks[i];
    }

    /** Position of the last break, or 0 if no {@code get} ran yet. */
    public int lastBreak() {
        return breakCount == 0 ? 0 : breaks[breakCount - 1];
    }

    /** Empties the frame for the next tick. Samples are not zeroed: sources overwrite them. */
    public void clear() {
        position = 0;
        end = size;
        breakCount = 0;
        for (int i = 0; i < metadataCount; i++) metadata[i] = null;
        metadataCount = 0;
        for (int i = 0; i < encodedCount; i++) encoded[i] = null;
        encodedCount = 0;
        for (int i = 0; i < imageCount; i++) images[i] = null;
        imageCount = 0;
    }

    /**
     * Copies samples {@code [from, to)} of {@code src}, with the metadata, packets and images in
     * that range, to this frame's position and advances. Both frames must have the same format.
     */
    public void copyFrom(Frame src, int from, int to) {
        int n = to - from;
        for (int c = 0; c < pcm.length; c++)
            System.arraycopy(src.pcm[c], from, pcm[c], position, n);
        for (int i = 0; i < src.metadataCount; i++) {
            int p = src.metadataPositions[i];
            if (p >= from && p < to) addMetadata(position + p - from, src.metadata[i]);
        }
        for (int i = 0; i < src.encodedCount; i++) {
            int p = src.encodedPositions[i];
            if (p >= from && p < to) addEncoded(position + p - from, src.encoded[i]);
        }
        for (int i = 0; i < src.imageCount; i++) {
            int p = src.imagePositions[i];
            if (p >= from && p < to) addImage(position + p - from, src.images[i]);
        }
        advance(n);
    }
}
