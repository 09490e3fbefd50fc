package org.groovecast.testkit;

import org.groovecast.api.Metadata;

/**
 * Metadata a pulled source sent, and where: the frame of the pull it came in and its sample
 * position, counted from the first sample of that pull.
 *
 * @param frame index of the frame in the pull, from 0
 * @param position sample position from the start of the pull
 * @param metadata what the source attached there
 */
public record MetadataAt(int frame, int position, Metadata metadata) {}
