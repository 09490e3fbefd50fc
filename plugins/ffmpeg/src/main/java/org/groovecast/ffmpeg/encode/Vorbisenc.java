package org.groovecast.ffmpeg.encode;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
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
 * The system's libvorbis and libvorbisenc ({@code libvorbis.so.0}, {@code libvorbisenc.so.2}:
 * Debian's and Ubuntu's {@code libvorbisenc2}) called through the FFM API. The bundled FFmpeg has
 * no libvorbis, only its own experimental Vorbis encoder, which has no bit rate control and sounds
 * worse at the same size; Liquidsoap and Icecast's own tools encode with libvorbis. {@code
 * -Dgroovecast.vorbis=bundled} keeps FFmpeg's encoder; a path names another libvorbisenc.
 *
 * <p>Pointers cross as {@code long}, as in {@link Lame}: the per-tick calls then need no {@link
 * MemorySegment} object. The structures the API fills in ({@code vorbis_info}, {@code
 * vorbis_dsp_state}, {@code vorbis_block}, {@code vorbis_comment}, {@code ogg_packet}) are opaque
 * here except {@code ogg_packet}, whose fields are read at their LP64 offsets (x86-64 and AArch64
 * Linux: a pointer and five 64-bit integers).
 */
final class Vorbisenc {
    private static final Logger log = LoggerFactory.getLogger(Vorbisenc.class);
    static final String PROPERTY = "groovecast.vorbis";
    static final String LIBRARY = "libvorbisenc.so.2";
    static final String CORE = "libvorbis.so.0";

    /**
     * Room for each opaque structure: libvorbis 1.3's largest ({@code vorbis_block}) is 200 bytes.
     */
    static final long STRUCT = 512;

    /** {@code ogg_packet}: packet, bytes, b_o_s, e_o_s, granulepos, packetno. */
    static final long PACKET_DATA = 0;

    static final long PACKET_BYTES = 8;
    static final long PACKET_GRANULE = 32;
    static final long PACKET_SIZE = 48;

    /** Every address, for reading what the library points to without a segment per pointer. */
    static final MemorySegment ALL = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);

    final String version;
    final MethodHandle infoInit;
    final MethodHandle infoClear;
    final MethodHandle encodeInit;
    final MethodHandle encodeInitVbr;
    final MethodHandle commentInit;
    final MethodHandle commentClear;
    final MethodHandle analysisInit;
    final MethodHandle blockInit;
    final MethodHandle headerOut;
    final MethodHandle analysisBuffer;
    final MethodHandle analysisWrote;
    final MethodHandle blockOut;
    final MethodHandle analysis;
    final MethodHandle bitrateAddBlock;
    final MethodHandle bitrateFlushPacket;
    final MethodHandle blockClear;
    final MethodHandle dspClear;

    private Vorbisenc(SymbolLookup lib) throws Throwable {
        Linker linker = Linker.nativeLinker();
        FunctionDescriptor voidOf = FunctionDescriptor.ofVoid(JAVA_LONG);
        FunctionDescriptor intOf = FunctionDescriptor.of(JAVA_INT, JAVA_LONG);
        FunctionDescriptor intOf2 = FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG);
        infoInit = NativeCalls.downcall(linker, lib, "vorbis_info_init", voidOf);
        infoClear = NativeCalls.downcall(linker, lib, "vorbis_info_clear", voidOf);
        // int vorbis_encode_init(vorbis_info *, long channels, long rate, long max_bitrate,
        // long nominal_bitrate, long min_bitrate)
        encodeInit =
                NativeCalls.downcall(
                        linker,
                        lib,
                        "vorbis_encode_init",
                        FunctionDescriptor.of(
                                JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG,
                                JAVA_LONG));
        // int vorbis_encode_init_vbr(vorbis_info *, long channels, long rate, float quality)
        encodeInitVbr =
                NativeCalls.downcall(
                        linker,
                        lib,
                        "vorbis_encode_init_vbr",
                        FunctionDescriptor.of(
                                JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_FLOAT));
        commentInit = NativeCalls.downcall(linker, lib, "vorbis_comment_init", voidOf);
        commentClear = NativeCalls.downcall(linker, lib, "vorbis_comment_clear", voidOf);
        analysisInit = NativeCalls.downcall(linker, lib, "vorbis_analysis_init", intOf2);
        blockInit = NativeCalls.downcall(linker, lib, "vorbis_block_init", intOf2);
        headerOut =
                NativeCalls.downcall(
                        linker,
                        lib,
                        "vorbis_analysis_headerout",
                        FunctionDescriptor.of(
                                JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
        // float **vorbis_analysis_buffer(vorbis_dsp_state *, int vals)
        analysisBuffer =
                NativeCalls.downcall(
                        linker,
                        lib,
                        "vorbis_analysis_buffer",
                        FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_INT));
        analysisWrote =
                NativeCalls.downcall(
                        linker,
                        lib,
                        "vorbis_analysis_wrote",
                        FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_INT));
        blockOut = NativeCalls.downcall(linker, lib, "vorbis_analysis_blockout", intOf2);
        analysis = NativeCalls.downcall(linker, lib, "vorbis_analysis", intOf2);
        bitrateAddBlock = NativeCalls.downcall(linker, lib, "vorbis_bitrate_addblock", intOf);
        bitrateFlushPacket =
                NativeCalls.downcall(linker, lib, "vorbis_bitrate_flushpacket", intOf2);
        blockClear = NativeCalls.downcall(linker, lib, "vorbis_block_clear", intOf);
        dspClear = NativeCalls.downcall(linker, lib, "vorbis_dsp_clear", voidOf);
        MethodHandle versionOf =
                NativeCalls.downcall(
                        linker, lib, "vorbis_version_string", FunctionDescriptor.of(ADDRESS));
        version = ((MemorySegment) versionOf.invokeExact()).reinterpret(256).getString(0);
    }

    /**
     * The system libvorbisenc, or null (said once in the log, with the downgrade) when there is
     * none or FFmpeg's encoder was asked for.
     */
    static Vorbisenc system() {
        return Holder.VORBIS;
    }

    private static final class Holder {
        static final Vorbisenc VORBIS = load(System.getProperty(PROPERTY, "system"));
    }

    /** The warning that names the downgrade when there is no libvorbisenc. */
    static final String DOWNGRADE =
            "Vorbis is encoded with the bundled FFmpeg's experimental native encoder instead of libvorbis: "
                    + "lower quality at the same size, and no bit rate control (b= and quality= are not honoured)";

    /**
     * {@code choice}: {@code system}, {@code bundled}, or the path of a libvorbisenc (its libvorbis
     * is found beside it, else by the loader's search).
     */
    static Vorbisenc load(String choice) {
        if (choice.equals("bundled")) {
            log.info("vorbis: the bundled FFmpeg's native encoder ({}=bundled)", PROPERTY);
            return null;
        }
        String library = choice.equals("system") ? LIBRARY : choice;
        try {
            SymbolLookup enc = SymbolLookup.libraryLookup(library, Arena.global());
            SymbolLookup core;
            try {
                core = SymbolLookup.libraryLookup(CORE, Arena.global());
            } catch (IllegalArgumentException e) {
                core = enc; // libvorbisenc's own dependency: dlsym finds it through the handle
            }
            Vorbisenc vorbis = new Vorbisenc(enc.or(core));
            log.info("vorbis: {} from {}", vorbis.version, library);
            return vorbis;
        } catch (Throwable e) {
            log.warn(
                    "vorbis: no usable {} ({}); {} (Debian and Ubuntu: apt-get install libvorbisenc2)",
                    library,
                    e.getMessage(),
                    DOWNGRADE);
            return null;
        }
    }
}
