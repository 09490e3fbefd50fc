package org.groovecast.ffmpeg.encode;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The system's LAME ({@code libmp3lame.so.0}, what ffmpeg and Liquidsoap link on a distribution)
 * called through the FFM API. The bundled FFmpeg's LAME is built without the optimizations a
 * distribution's has and costs about three times the CPU per stream, which made MP3 the ceiling of
 * an audio server. {@code -Dgroovecast.mp3=bundled} keeps the bundled one; a path names another
 * library.
 *
 * <p>Pointers cross as {@code long}: on x86-64 and AArch64 a pointer argument is passed exactly as
 * a 64-bit integer, and a {@code long} needs no {@link MemorySegment} object per call, which the
 * encoder's per-tick calls would otherwise allocate.
 */
final class Lame {
    private static final Logger log = LoggerFactory.getLogger(Lame.class);
    static final String PROPERTY = "groovecast.mp3";
    static final String LIBRARY = "libmp3lame.so.0";
    static final int STEREO = 0;
    static final int JOINT_STEREO = 1;
    static final int MONO = 3;

    final String version;
    final MethodHandle init;
    final MethodHandle setInRate;
    final MethodHandle setOutRate;
    final MethodHandle setChannels;
    final MethodHandle setMode;
    final MethodHandle setBitrate;
    final MethodHandle setQuality;
    final MethodHandle setWriteVbrTag;
    final MethodHandle setDisableReservoir;
    final MethodHandle initParams;
    final MethodHandle encoderDelay;
    final MethodHandle encodeFloat;
    final MethodHandle flush;
    final MethodHandle close;

    private Lame(SymbolLookup lib) throws Throwable {
        Linker linker = Linker.nativeLinker();
        FunctionDescriptor set = FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_INT);
        FunctionDescriptor get = FunctionDescriptor.of(JAVA_INT, JAVA_LONG);
        init = NativeCalls.downcall(linker, lib, "lame_init", FunctionDescriptor.of(JAVA_LONG));
        setInRate = NativeCalls.downcall(linker, lib, "lame_set_in_samplerate", set);
        setOutRate = NativeCalls.downcall(linker, lib, "lame_set_out_samplerate", set);
        setChannels = NativeCalls.downcall(linker, lib, "lame_set_num_channels", set);
        setMode = NativeCalls.downcall(linker, lib, "lame_set_mode", set);
        setBitrate = NativeCalls.downcall(linker, lib, "lame_set_brate", set);
        setQuality = NativeCalls.downcall(linker, lib, "lame_set_quality", set);
        setWriteVbrTag = NativeCalls.downcall(linker, lib, "lame_set_bWriteVbrTag", set);
        setDisableReservoir = NativeCalls.downcall(linker, lib, "lame_set_disable_reservoir", set);
        initParams = NativeCalls.downcall(linker, lib, "lame_init_params", get);
        encoderDelay = NativeCalls.downcall(linker, lib, "lame_get_encoder_delay", get);
        // int lame_encode_buffer_ieee_float(lame_t, const float l[], const float r[], int n,
        // unsigned char *out, int size):
        // floats in [-1, 1], the clock's own scale, so the samples are copied as they are.
        encodeFloat =
                NativeCalls.downcall(
                        linker,
                        lib,
                        "lame_encode_buffer_ieee_float",
                        FunctionDescriptor.of(
                                JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_LONG,
                                JAVA_INT));
        flush =
                NativeCalls.downcall(
                        linker,
                        lib,
                        "lame_encode_flush",
                        FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT));
        close = NativeCalls.downcall(linker, lib, "lame_close", get);
        MethodHandle versionOf =
                NativeCalls.downcall(
                        linker, lib, "get_lame_version", FunctionDescriptor.of(ADDRESS));
        version = ((MemorySegment) versionOf.invokeExact()).reinterpret(64).getString(0);
    }

    /**
     * The system LAME, or null (said once in the log) when there is none or the bundled one was
     * asked for.
     */
    static Lame system() {
        return Holder.LAME;
    }

    private static final class Holder {
        static final Lame LAME = load(System.getProperty(PROPERTY, "system"));
    }

    static Lame load(String choice) {
        if (choice.equals("bundled")) {
            log.info("mp3: the bundled FFmpeg's LAME ({}=bundled)", PROPERTY);
            return null;
        }
        String library = choice.equals("system") ? LIBRARY : choice;
        try {
            Lame lame = new Lame(SymbolLookup.libraryLookup(library, Arena.global()));
            log.info("mp3: LAME {} from {}", lame.version, library);
            return lame;
        } catch (Throwable e) {
            log.warn(
                    "mp3: no usable {} ({}); encoding with the bundled FFmpeg's LAME, about 3x the CPU per stream "
                            + "(Debian and Ubuntu: apt-get install libmp3lame0)",
                    library,
                    e.getMessage());
            return null;
        }
    }
}
