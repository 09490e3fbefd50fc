package com.example.widener;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.groovecast.api.Frame;
import org.groovecast.api.Generator;
import org.groovecast.testkit.FramePuller;
import org.groovecast.testkit.Pulled;
import org.groovecast.testkit.TestContext;
import org.junit.jupiter.api.Test;

class WidenerTest {
    /** Left 0.6, right 0.2 on every sample: mid 0.4, side 0.2. */
    static final class Constant extends Generator {
        Constant() {
            super("constant");
        }

        @Override
        protected void generate(Frame frame) {
            int n = frame.free();
            for (int i = 0; i < n; i++) {
                frame.channel(0)[frame.position() + i] = 0.6f;
                frame.channel(1)[frame.position() + i] = 0.2f;
            }
            frame.advance(n);
        }
    }

    float[] run(double width) {
        Pulled p =
                new FramePuller(new Widener(new Constant(), width), TestContext.standard()).pull(1);
        assertEquals(882, p.produced());
        return new float[] {p.channel(0)[100], p.channel(1)[100]};
    }

    @Test
    void widthScalesTheSideAndKeepsTheMid() {
        float[] wide = run(2);
        assertEquals(0.8f, wide[0], 1e-6); // 0.4 + 2 x 0.2
        assertEquals(0.0f, wide[1], 1e-6);
        float[] mono = run(0);
        assertEquals(0.4f, mono[0], 1e-6);
        assertEquals(0.4f, mono[1], 1e-6);
        float[] same = run(1);
        assertEquals(0.6f, same[0], 1e-6);
        assertEquals(0.2f, same[1], 1e-6);
    }
}
