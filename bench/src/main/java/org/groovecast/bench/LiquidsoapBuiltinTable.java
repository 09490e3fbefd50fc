package org.groovecast.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.groovecast.liquidsoap.types.Signatures;

/**
 * The types of Liquidsoap 2.4.5's OCaml builtins that its library and tests call, from the table
 * {@code liquidsoap-builtins.txt} (written for the conformance bench; Groovecast's own prelude
 * registers its builtins itself). A name the table lacks is typed {@code 'a}, anything, and
 * counted, so that a figure says how much rests on a real type.
 */
final class LiquidsoapBuiltinTable implements Signatures {
    private static final String RESOURCE = "liquidsoap-builtins.txt";

    /** What every source has ($SM in the table). */
    private static final String SOURCE_METHODS =
            "id : () -> string, is_ready : () -> bool, generate_frame : () -> unit,"
                    + " insert_metadata : (?new_track : bool, [(string * string)]) -> unit,"
                    + " reset_last_metadata_on_track : (() -> bool).{set : (bool) -> unit},"
                    + " buffered : () -> [(string * float)], last_metadata : () -> [(string *"
                    + " string)]?, register_command : (?usage : string?, description : string,"
                    + " string, (string) -> string) -> unit, remaining : () -> float, elapsed : ()"
                    + " -> float, duration : () -> float, self_sync : () -> bool, log : {level :"
                    + " (() -> int).{set : (int) -> unit}}, is_up : () -> bool, is_active : () ->"
                    + " bool, seek : (float) -> float, skip : () -> unit, fallible : bool, clock :"
                    + " clock, time : () -> float, on_metadata : (synchronous : bool, ([(string *"
                    + " string)]) -> unit) -> unit, on_wake_up : (synchronous : bool, () -> unit)"
                    + " -> unit, on_shutdown : (synchronous : bool, () -> unit) -> unit, on_track :"
                    + " (synchronous : bool, ([(string * string)]) -> unit) -> unit, on_frame :"
                    + " (?before : bool, synchronous : bool, () -> unit) -> unit,"
                    + " on_frame_checksum : (?before : ((string?) -> unit)?, synchronous : bool,"
                    + " (cache : string?, string) -> unit) -> unit, on_position : (position :"
                    + " {float}, ?remaining : bool, ?allow_partial : bool, synchronous : bool,"
                    + " (float, [(string * string)]) -> unit) -> unit";

    /** What outputs and active inputs add ($OM). */
    private static final String OUTPUT_METHODS =
            "start : () -> unit, stop : () -> unit, is_started : () -> bool, shutdown : () ->"
                    + " unit, on_start : (synchronous : bool, () -> unit) -> unit, on_stop :"
                    + " (synchronous : bool, () -> unit) -> unit";

    private static final String ERROR =
            "error.{kind : string, message : string, trace : [{filename : string, lstart : int,"
                    + " lstop : int, cstart : int, cstop : int, to_string : (?prefix : string) ->"
                    + " string}]}";

    private static final String SOCKET =
            "socket.{type : string, non_blocking : (bool) -> unit, write : ((?timeout : float?,"
                    + " string) -> unit).{wait : (?timeout : float?, () -> unit) -> unit}, read :"
                    + " ((?timeout : float?) -> string).{wait : (?timeout : float?, () -> unit) ->"
                    + " unit}, closed : () -> bool, close : () -> unit}";

    private final Map<String, String> types;
    private final Set<String> placeholders = new TreeSet<>();

    private LiquidsoapBuiltinTable(Map<String, String> types) {
        this.types = types;
    }

    static LiquidsoapBuiltinTable load() throws IOException {
        String text;
        try (InputStream in = LiquidsoapBuiltinTable.class.getResourceAsStream(RESOURCE)) {
            if (in == null) throw new IOException("missing resource " + RESOURCE);
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Map<String, String> types = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) continue;
            int colon = line.indexOf(" : ");
            if (colon < 0) throw new IOException(RESOURCE + ": no ` : ` in " + line);
            types.put(line.substring(0, colon).trim(), expand(line.substring(colon + 3).trim()));
        }
        return new LiquidsoapBuiltinTable(types);
    }

    /** The table's macros: $M, $SM, $OM, $ERR, $SOCK, $NODE and $SET(t). */
    static String expand(String t) {
        t =
                t.replace("$SOCK", SOCKET)
                        .replace("$SM", SOURCE_METHODS)
                        .replace("$OM", OUTPUT_METHODS)
                        .replace("$ERR", ERROR)
                        .replace("$NODE", "description : string, comments : string")
                        .replace("$M", "[(string * string)]");
        int i;
        while ((i = t.indexOf("$SET(")) >= 0) {
            int depth = 0;
            int j = i + 4;
            for (; j < t.length(); j++) {
                if (t.charAt(j) == '(') depth++;
                if (t.charAt(j) == ')' && --depth == 0) break;
            }
            String inner = t.substring(i + 5, j);
            t =
                    t.substring(0, i)
                            + "(() -> "
                            + inner
                            + ").{set : ("
                            + inner
                            + ") -> unit, description : string, comments : string}"
                            + t.substring(j + 1);
        }
        return t;
    }

    @Override
    public Map<String, String> types() {
        return types;
    }

    /** A builtin the table lacks: anything, and counted. */
    @Override
    public synchronized String unknown(String name) {
        placeholders.add(name);
        return "'a";
    }

    int size() {
        return types.size();
    }

    /** The entries the table itself types 'a, anything. */
    int typedAnything() {
        return (int) types.values().stream().filter("'a"::equals).count();
    }

    /** The names typed 'a so far. */
    synchronized Set<String> placeholders() {
        return new TreeSet<>(placeholders);
    }
}
