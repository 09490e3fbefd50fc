package org.groovecast.ffmpeg.encode;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

/**
 * Calls into the system's codec libraries (LAME, libvorbisenc, libfdk-aac) through the Foreign
 * Function API: the bundled FFmpeg lacks or underperforms these encoders, and FFM reaches a system
 * library without native glue of our own.
 */
final class NativeCalls {
    private NativeCalls() {}

    /** A handle on {@code name} in {@code lib}; an UnsatisfiedLinkError naming it if missing. */
    static MethodHandle downcall(
            Linker linker, SymbolLookup lib, String name, FunctionDescriptor d) {
        MemorySegment symbol =
                lib.find(name).orElseThrow(() -> new UnsatisfiedLinkError("no " + name));
        return linker.downcallHandle(symbol, d);
    }
}
