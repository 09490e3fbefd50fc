package org.groovecast.api;

/**
 * The samples of a live input between its decoding thread and the clock. The input becomes
 * available once {@code buffer} seconds are in (or, the connection gone, for what is left), and
 * after running dry only once that much is back: an underrun ends the track instead of stuttering.
 */
public final class LiveBuffer {
    /** Pictures kept for the clock at most: past this many the decoder's newest are dropped. */
    private static final int MAX_PICTURES = 64;

    private final PcmRing ring;
    private final LivePictures pictures;
    private final int bufferSamples;
    private boolean playing;

    /**
     * @param maxSeconds what is kept at most (at least a second more than {@code bufferSeconds})
     * @param video the pictures' format when the input carries video to the graph, else null
     */
    public LiveBuffer(
            AudioFormat format, double bufferSeconds, double maxSeconds, VideoFormat video) {
        this.ring =
                new PcmRing(
                        format.channels(),
                        (int) format.samples(Math.max(maxSeconds, bufferSeconds + 1)));
        this.pictures = video == null ? null : new LivePictures(video, MAX_PICTURES);
        this.bufferSamples = (int) format.samples(bufferSeconds);
    }

    /**
     * Writer (the decoding thread): the first {@code n} samples of {@code decoded}, with their
     * pictures.
     */
    public void write(Frame decoded, int n) {
        long at = ring.writtenPosition();
        int written = ring.write(decoded, 0, n);
        if (pictures == null) return;
        for (int i = 0; i < decoded.imageCount(); i++) {
            int pos = decoded.imagePosition(i);
            if (pos < written) pictures.offer(at + pos, decoded.image(i));
        }
    }

    /** Clock side: whether there is something to play now. */
    public boolean isReady(boolean connected) {
        int available = ring.available();
        if (playing && available > 0) return true;
        playing = available >= Math.max(1, bufferSamples) || available > 0 && !connected;
        return playing;
    }

    /**
     * Clock side: fills what it can of {@code frame}; {@code tick} is the clock's (pictures live
     * through it).
     */
    public void read(Frame frame, long tick) {
        int base = frame.position();
        long from = ring.readPosition();
        int n = ring.read(frame, frame.free());
        if (pictures != null) pictures.attach(frame, base, from, from + n, tick);
        if (ring.available() == 0) playing = false;
    }
}
