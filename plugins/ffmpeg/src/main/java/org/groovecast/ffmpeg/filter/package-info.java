/**
 * libavfilter: {@code ffmpeg.filter(s, graph, video:)}, audio and video graphs run on the frames.
 */
package org.groovecast.ffmpeg.filter;
