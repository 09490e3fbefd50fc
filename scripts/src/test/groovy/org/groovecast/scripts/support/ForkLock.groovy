package org.groovecast.scripts.support

import java.nio.channels.FileChannel
import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.StandardOpenOption

/**
 * Mutual exclusion between the test JVMs that run the specs side by side (scripts/pom.xml's
 * forkCount): an exclusive lock on a file that all of them name, released when the body ends.
 */
final class ForkLock {
    private ForkLock() {}

    static <T> T holding(Path file, Closure<T> body) {
        Files.createDirectories(file.toAbsolutePath().parent)
        FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE).withCloseable { channel ->
            channel.lock() // let go when the channel closes
            body()
        }
    }
}
