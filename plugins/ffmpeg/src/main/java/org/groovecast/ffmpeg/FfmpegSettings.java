package org.groovecast.ffmpeg;

import java.util.List;
import org.groovecast.api.SettingSpec;
import org.groovecast.api.SettingsProvider;
import org.groovecast.api.StreamContext;
import org.groovecast.api.ValueType;
import org.pf4j.Extension;

/**
 * The settings of this plugin ({@code settings.ffmpeg.*}), declared to the engine and read from a
 * source's context.
 */
@Extension
public final class FfmpegSettings implements SettingsProvider {
    static final SettingSpec SCALING_THREADS =
            new SettingSpec(
                    "ffmpeg.scalingThreads",
                    ValueType.INTEGER,
                    1,
                    "video scaler threads (0 = one per core)");

    @Override
    public List<SettingSpec> settings() {
        return List.of(SCALING_THREADS);
    }

    /**
     * Threads an image scaler of a source prepared with {@code context} may use; 0 means one per
     * core.
     */
    public static int scalingThreads(StreamContext context) {
        return ((Number) SCALING_THREADS.valueIn(context)).intValue();
    }
}
