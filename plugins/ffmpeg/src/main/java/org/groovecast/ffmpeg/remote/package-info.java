/**
 * Remote streams: {@code input.ffmpeg} and {@code input.http} pulled on a thread of their own, and
 * {@code output.url} pushed from one, each connecting again after a jittered backoff.
 */
package org.groovecast.ffmpeg.remote;
