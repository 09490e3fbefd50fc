package org.groovecast.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class FaultTolerantChannelTest {
    static final Path DIR = Path.of("target", "channel-tests").toAbsolutePath();

    /**
     * A real file whose disk holds {@code capacity} bytes: past it a write puts down what fits,
     * then fails, as the kernel does.
     */
    static final class SmallDisk extends FileChannel {
        final FileChannel file;
        long capacity;
        int writes;

        SmallDisk(Path path, long capacity) throws IOException {
            Files.createDirectories(path.getParent());
            file =
                    FileChannel.open(
                            path,
                            StandardOpenOption.CREATE,
                            StandardOpenOption.READ,
                            StandardOpenOption.WRITE,
                            StandardOpenOption.TRUNCATE_EXISTING);
            this.capacity = capacity;
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            writes++;
            long room = capacity - file.position();
            if (room <= 0) throw new IOException("No space left on device");
            if (src.remaining() <= room) return file.write(src);
            ByteBuffer part = src.slice(src.position(), (int) room);
            int n = file.write(part);
            src.position(src.position() + n);
            return n;
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            return file.read(dst);
        }

        @Override
        public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
            return file.read(dsts, offset, length);
        }

        @Override
        public long write(ByteBuffer[] srcs, int offset, int length) {
            throw new UnsupportedOperationException();
        }

        @Override
        public long position() throws IOException {
            return file.position();
        }

        @Override
        public FileChannel position(long p) throws IOException {
            file.position(p);
            return this;
        }

        @Override
        public long size() throws IOException {
            return file.size();
        }

        @Override
        public FileChannel truncate(long size) throws IOException {
            file.truncate(size);
            return this;
        }

        @Override
        public void force(boolean metaData) throws IOException {
            file.force(metaData);
        }

        @Override
        public long transferTo(long position, long count, WritableByteChannel target) {
            throw new UnsupportedOperationException();
        }

        @Override
        public long transferFrom(ReadableByteChannel src, long position, long count) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int read(ByteBuffer dst, long position) throws IOException {
            return file.read(dst, position);
        }

        @Override
        public int write(ByteBuffer src, long position) {
            throw new UnsupportedOperationException();
        }

        @Override
        public MappedByteBuffer map(MapMode mode, long position, long size) {
            throw new UnsupportedOperationException();
        }

        @Override
        public FileLock lock(long position, long size, boolean shared) {
            throw new UnsupportedOperationException();
        }

        @Override
        public FileLock tryLock(long position, long size, boolean shared) {
            throw new UnsupportedOperationException();
        }

        @Override
        protected void implCloseChannel() throws IOException {
            file.close();
        }
    }

    static final class Events implements FaultTolerantChannel.Listener {
        final List<String> seen = new ArrayList<>();

        @Override
        public void failed(IOException cause) {
            seen.add("failed " + cause.getMessage());
        }

        @Override
        public void resumed(long lostBytes, long outageNanos) {
            seen.add("resumed, lost " + lostBytes);
        }
    }

    static ByteBuffer bytes(int n, int value) {
        byte[] b = new byte[n];
        Arrays.fill(b, (byte) value);
        return ByteBuffer.wrap(b);
    }

    @Test
    void aRefusedWriteIsDroppedWholeAndTheFileGoesOnWhereItStoodOnceThereIsRoom()
            throws IOException {
        Path path = DIR.resolve("full.bin");
        SmallDisk disk = new SmallDisk(path, 1000);
        Events events = new Events();
        try (FaultTolerantChannel ch = new FaultTolerantChannel(disk, 0, events)) {
            assertEquals(400, ch.write(bytes(400, 1)));
            assertEquals(400, ch.write(bytes(400, 2)));
            ByteBuffer third = bytes(400, 3);
            assertEquals(400, ch.write(third), "the encoder is told it was written");
            assertFalse(third.hasRemaining());
            assertEquals(800, Files.size(path), "the 200 bytes that fitted were cut off again");
            assertTrue(ch.isFailing());
            assertEquals(400, ch.write(bytes(400, 4)));
            assertEquals(800, ch.position());

            disk.capacity = 10_000; // the filler is deleted
            assertEquals(400, ch.write(bytes(400, 5)));
            assertFalse(ch.isFailing());
            assertEquals(1200, ch.position());
        }
        byte[] file = Files.readAllBytes(path);
        assertEquals(1200, file.length);
        byte[] expected = new byte[1200];
        Arrays.fill(expected, 0, 400, (byte) 1);
        Arrays.fill(expected, 400, 800, (byte) 2);
        Arrays.fill(expected, 800, 1200, (byte) 5);
        assertArrayEquals(expected, file, "what was written before stays, the gap is whole writes");
        assertEquals(
                List.of("failed No space left on device", "resumed, lost 800"),
                events.seen,
                "one failure per outage");
    }

    @Test
    void whileFailingTheDiskIsTriedAtMostOncePerRetryPeriod() throws IOException {
        SmallDisk disk = new SmallDisk(DIR.resolve("paced.bin"), 100);
        Events events = new Events();
        try (FaultTolerantChannel ch = new FaultTolerantChannel(disk, 3_600_000_000_000L, events)) {
            ch.write(bytes(100, 1));
            ch.write(bytes(100, 2));
            int tried = disk.writes;
            for (int i = 0; i < 1000; i++) ch.write(bytes(100, 3));
            assertEquals(tried, disk.writes, "frames during the outage cost no system call");
            disk.capacity = 1000;
            ch.write(bytes(100, 4));
            assertTrue(ch.isFailing(), "not tried again before the retry period is over");
        }
        assertEquals(List.of("failed No space left on device"), events.seen);
    }
}
