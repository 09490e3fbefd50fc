package org.groovecast.net.live;

import org.groovecast.api.AudioFormat;
import org.groovecast.api.Frame;

/**
 * The samples of a live input between its decoding thread and the clock. The input becomes
 * available once {@code buffer} seconds are in (or, the connection gone, for what is left), and
 * after running dry only once that much is back: an underrun ends the track instead of stuttering.
 */
public final class LiveBuffer {
    private final PcmRing ring;
    private final int bufferSamples;
    private boolean playing;

    /** @param maxSeconds what is kept at most (at least a second more than {@code bufferSeconds}) */
    public LiveBuffer(AudioFormat format, double bufferSeconds, double maxSeconds) {
        this.ring = new PcmRing(format.channels(), (int) format.samples(Math.max(maxSeconds, bufferSeconds + 1)));
        this.bufferSamples = (int) format.samples(bufferSeconds);
    }

    /** Where the decoding thread writes. */
    public PcmRing ring() {
        return ring;
    }

    /** Clock side: whether there is something to play now. */
    public boolean isReady(boolean connected) {
        int available = ring.available();
        if (playing && available > 0) return true;
        playing = available >= Math.max(1, bufferSamples) || available > 0 && !connected;
        return playing;
    }

    /** Clock side: fills what it can of {@code frame}. */
    public void read(Frame frame) {
        ring.read(frame, frame.free());
        if (ring.available() == 0) playing = false;
    }
}
