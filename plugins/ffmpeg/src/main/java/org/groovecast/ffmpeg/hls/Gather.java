package org.groovecast.ffmpeg.hls;

import java.util.List;
import org.groovecast.api.Frame;
import org.groovecast.api.Source;
import org.groovecast.api.StreamContext;

/**
 * Pulls several sources in step and passes on the first one's audio, metadata and tracks with the
 * encoded packets of all of them: what an HLS output with one rendition per shared encode needs.
 */
final class Gather extends Source {
    private final List<Source> sources;
    private Frame scratch;

    Gather(List<Source> sources) {
        super("gather", sources);
        this.sources = sources;
    }

    @Override
    protected void onPrepare(StreamContext context) {
        scratch = new Frame(context.format(), context.frameSize());
    }

    @Override
    public boolean isReady() {
        return sources.getFirst().isReady();
    }

    @Override
    public boolean isFallible() {
        for (Source s : sources) {
            if (s.isFallible()) return true;
        }
        return false;
    }

    @Override
    protected void generate(Frame frame) {
        int from = frame.position();
        sources.getFirst().get(frame);
        int to = frame.position();
        for (int i = 1; i < sources.size(); i++) {
            Source s = sources.get(i);
            scratch.clear();
            scratch.limit(to);
            scratch.silence(
                    from); // align with this tick's positions, as the sources' caches expect
            while (scratch.position() < to && s.isReady()) {
                int before = scratch.position();
                s.get(scratch);
                if (scratch.position() == before) break;
            }
            for (int k = 0; k < scratch.encodedCount(); k++) {
                frame.addEncoded(scratch.encodedPosition(k), scratch.encoded(k));
            }
        }
    }
}
