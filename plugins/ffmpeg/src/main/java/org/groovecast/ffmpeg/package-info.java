/**
 * The FFmpeg plugin: its entry point ({@link org.groovecast.ffmpeg.FfmpegPlugin}) and its
 * plugin-wide settings ({@code settings.ffmpeg.*}). The work is in a package per role, each but
 * {@code decode} with the provider of its operators: {@code decode} (files and live streams),
 * {@code encode} (encoders and muxers), {@code hls}, {@code playlist} (the request sources), {@code
 * autocue}, {@code remote} (streams pulled from and pushed to URLs) and {@code filter}
 * (libavfilter); {@code shared} is what several of them use. The arrows go one way: the request
 * sources, autocue and the remote inputs read through {@code decode}; HLS and the remote outputs
 * write through {@code encode}; nothing points back.
 */
package org.groovecast.ffmpeg;
