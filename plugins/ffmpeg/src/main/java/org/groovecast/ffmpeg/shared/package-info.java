/**
 * What several roles use: FFmpeg's C conventions ({@link org.groovecast.ffmpeg.shared.Av}), the
 * interrupt callback that bounds every blocking native call, the retry backoff towards a remote
 * peer, and the pictures and scaler that decoding, encoding and filtering share.
 */
package org.groovecast.ffmpeg.shared;
