package org.groovecast.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class SettingSpecTest {
    static final SettingSpec THREADS =
            new SettingSpec("ffmpeg.scalingThreads", ValueType.INTEGER, 1, "threads");

    @Test
    void aContextWithoutSettingsGivesTheDefaultAndOneWithSettingsItsValue() {
        assertEquals(1, THREADS.valueIn(null));
        assertEquals(1, THREADS.valueIn(TestSources.context(10)));
        StreamContext withSettings =
                new StreamContext() {
                    final StreamContext base = TestSources.context(10);

                    @Override
                    public Object setting(String name) {
                        return name.equals("ffmpeg.scalingThreads") ? 4 : null;
                    }

                    @Override
                    public AudioFormat format() {
                        return base.format();
                    }

                    @Override
                    public int frameSize() {
                        return base.frameSize();
                    }

                    @Override
                    public ClockInfo clock() {
                        return null;
                    }

                    @Override
                    public java.util.concurrent.Executor blocking() {
                        return base.blocking();
                    }

                    @Override
                    public boolean realtime() {
                        return true;
                    }

                    @Override
                    public void beforeStart(Runnable blockingWork) {
                        blockingWork.run();
                    }
                };
        assertEquals(4, THREADS.valueIn(withSettings));
    }

    @Test
    void aNameIsTwoDottedWordsAtLeastAndATypeOneASettingCanHave() {
        assertThrows(
                IllegalArgumentException.class,
                () -> new SettingSpec("threads", ValueType.INTEGER, 1, ""));
        assertThrows(
                IllegalArgumentException.class,
                () -> new SettingSpec("ffmpeg.Threads", ValueType.INTEGER, 1, ""));
        assertThrows(
                IllegalArgumentException.class,
                () -> new SettingSpec("ffmpeg.source", ValueType.SOURCE, 1, ""));
        assertThrows(
                NullPointerException.class,
                () -> new SettingSpec("ffmpeg.threads", ValueType.INTEGER, null, ""));
    }
}
