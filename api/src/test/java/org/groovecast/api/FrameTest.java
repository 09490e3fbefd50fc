package org.groovecast.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class FrameTest {
    static final VideoFormat TINY = new VideoFormat(4, 2, 25);

    @Test
    void copyFromCarriesTheImagesOfTheCopiedRangeOnly() {
        Frame src = new Frame(AudioFormat.DEFAULT, 100);
        Image a = new Image(TINY).fill(10, 20, 30);
        Image b = new Image(TINY).black();
        src.addImage(0, a);
        src.addImage(60, b);
        src.advance(100);
        Frame dst = new Frame(AudioFormat.DEFAULT, 100);
        dst.advance(10);
        dst.copyFrom(src, 50, 90);
        assertEquals(1, dst.imageCount());
        assertSame(b, dst.image(0));
        assertEquals(20, dst.imagePosition(0));
        dst.clear();
        assertEquals(0, dst.imageCount());
    }

    @Test
    void imagesHaveHalfSizeChromaAndCopyPixels() {
        Image a = new Image(TINY).fill(1, 2, 3);
        assertEquals(8, a.plane(0).remaining());
        assertEquals(2, a.plane(1).remaining());
        Image b = new Image(TINY).black();
        b.copyFrom(a);
        assertEquals(1, b.plane(0).get(7));
        assertEquals(3, b.plane(2).get(1));
        assertThrows(
                IllegalArgumentException.class,
                () -> b.copyFrom(new Image(new VideoFormat(2, 2, 25))));
        assertThrows(IllegalArgumentException.class, () -> new VideoFormat(3, 2, 25));
    }

    @Test
    void videoFramesStartOnExactSamplePositions() {
        assertEquals(1764, VideoFormat.DEFAULT.framePosition(1, AudioFormat.DEFAULT));
        assertEquals(44100, VideoFormat.DEFAULT.framePosition(25, AudioFormat.DEFAULT));
        assertEquals(1470, new VideoFormat(2, 2, 30).framePosition(1, AudioFormat.DEFAULT));
    }
}
