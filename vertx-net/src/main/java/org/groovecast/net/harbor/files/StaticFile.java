package org.groovecast.net.harbor.files;

import io.netty.buffer.ByteBuf;
import java.nio.file.Path;

/**
 * A file a {@code harbor.http.static} directory serves, as last checked: where it is, its type and
 * size, and its bytes when it is small enough to be kept ({@code body}, never released: the cache
 * holds it until it is replaced, and the memory goes back when nothing refers to it any more).
 *
 * @param checkedAt when the file system was last asked ({@link System#nanoTime()})
 * @param followSymlinks the rule the file was found under: a change of the setting asks again
 */
public record StaticFile(
        Path path,
        String type,
        long size,
        long modified,
        ByteBuf body,
        long checkedAt,
        boolean followSymlinks) {

    /** The bytes to write for one reply, shared with the cache by reference; null when not kept. */
    public ByteBuf bodyForReply() {
        return body == null ? null : body.retainedDuplicate();
    }
}
