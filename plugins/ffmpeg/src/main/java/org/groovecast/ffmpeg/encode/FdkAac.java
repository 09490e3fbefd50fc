package org.groovecast.ffmpeg.encode;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The system's Fraunhofer FDK AAC encoder ({@code libfdk-aac.so.2}, fdk-aac 2.x: Debian's non-free
 * {@code libfdk-aac2}) called through the FFM API, for what scripts ask of {@code libfdk_aac}
 * (AzuraCast's HE-AACv2), which the bundled FFmpeg, built without it for its licence, does not
 * have. Without it {@link FdkAacFallback} encodes FFmpeg's native AAC-LC. {@code
 * -Dgroovecast.fdkaac=bundled} keeps the fallback; a path names another library.
 *
 * <p>The library is not in Debian main, so the usual test runs skip FdkAacAudioEncoderTest and test
 * the loader, the fallback and the parameter mapping ({@link FdkAacSettings}); the binding follows
 * {@code aacenc_lib.h} of fdk-aac 2.x and was checked against 2.0.3 built from source ({@code
 * -Dgroovecast.fdkaac=PATH}). Pointers cross as {@code long}, as in {@link Lame}.
 */
final class FdkAac {
    private static final Logger log = LoggerFactory.getLogger(FdkAac.class);
    static final String PROPERTY = "groovecast.fdkaac";
    static final String LIBRARY = "libfdk-aac.so.2";

    // AACENC_PARAM
    static final int AOT = 0x0100;
    static final int BITRATE = 0x0101;
    static final int BITRATEMODE = 0x0102;
    static final int SAMPLERATE = 0x0103;
    static final int CHANNELMODE = 0x0106;
    static final int CHANNELORDER = 0x0107;
    static final int AFTERBURNER = 0x0200;
    static final int BANDWIDTH = 0x0203;
    static final int TRANSMUX = 0x0300;
    static final int SIGNALING_MODE = 0x0302;

    /** AACENC_ERROR values the encoder loop tells apart. */
    static final int OK = 0;

    static final int ENCODE_EOF = 0x0080;

    /** TRANSPORT_TYPE: raw access units; FFmpeg's ADTS, MPEG-TS and MP4 muxers frame them. */
    static final int TT_MP4_RAW = 0;

    /** AACENC_BufferIdentifier. */
    static final int IN_AUDIO_DATA = 0;

    static final int OUT_BITSTREAM_DATA = 3;

    /**
     * AACENC_InfoStruct of fdk-aac 2.x: maxOutBufBytes, maxAncBytes, inBufFillLevel, inputChannels,
     * frameLength, nDelay, nDelayCore (UINTs), confBuf[64], confSize.
     */
    static final long INFO_MAX_OUT = 0;

    static final long INFO_FRAME_LENGTH = 16;
    static final long INFO_DELAY = 20;
    static final long INFO_CONF = 28;
    static final long INFO_CONF_SIZE = 92;
    static final long INFO_SIZE = 256;

    final MethodHandle open;
    final MethodHandle setParam;
    final MethodHandle encode;
    final MethodHandle info;
    final MethodHandle close;

    private FdkAac(SymbolLookup lib) {
        Linker linker = Linker.nativeLinker();
        // AACENC_ERROR aacEncOpen(HANDLE_AACENCODER *, const UINT encModules, const UINT
        // maxChannels)
        open =
                NativeCalls.downcall(
                        linker,
                        lib,
                        "aacEncOpen",
                        FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_INT));
        // AACENC_ERROR aacEncoder_SetParam(const HANDLE_AACENCODER, const AACENC_PARAM, const UINT)
        setParam =
                NativeCalls.downcall(
                        linker,
                        lib,
                        "aacEncoder_SetParam",
                        FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_INT));
        // AACENC_ERROR aacEncEncode(handle, const AACENC_BufDesc *in, const AACENC_BufDesc *out,
        // const AACENC_InArgs *, AACENC_OutArgs *)
        encode =
                NativeCalls.downcall(
                        linker,
                        lib,
                        "aacEncEncode",
                        FunctionDescriptor.of(
                                JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
        info =
                NativeCalls.downcall(
                        linker,
                        lib,
                        "aacEncInfo",
                        FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG));
        close =
                NativeCalls.downcall(
                        linker, lib, "aacEncClose", FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
    }

    /**
     * The system libfdk-aac, or null when there is none (said once at info level: the fallback
     * warns for each encoder, naming the downgrade) or the fallback was asked for.
     */
    static FdkAac system() {
        return Holder.FDK;
    }

    private static final class Holder {
        static final FdkAac FDK = load(System.getProperty(PROPERTY, "system"));
    }

    static FdkAac load(String choice) {
        if (choice.equals("bundled")) {
            log.info("libfdk_aac: not used ({}=bundled)", PROPERTY);
            return null;
        }
        String library = choice.equals("system") ? LIBRARY : choice;
        try {
            FdkAac fdk = new FdkAac(SymbolLookup.libraryLookup(library, Arena.global()));
            log.info("libfdk_aac: {}", library);
            return fdk;
        } catch (Throwable e) {
            log.info(
                    "libfdk_aac: no usable {} ({}); libfdk_aac encoders fall back to FFmpeg's AAC-LC",
                    library,
                    e.getMessage());
            return null;
        }
    }
}
