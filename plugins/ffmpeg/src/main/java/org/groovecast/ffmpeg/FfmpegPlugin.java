package org.groovecast.ffmpeg;

import org.pf4j.Plugin;

/** Everything that goes through FFmpeg: decoding files and streams, encoders, HLS. */
public final class FfmpegPlugin extends Plugin {}
