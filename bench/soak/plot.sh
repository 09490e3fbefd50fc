#!/usr/bin/env bash
# Draws a soak run's samples: DIR/soak.csv and DIR/events.csv (written by bench/soak/run.sh) to
# DIR/soak.png with gnuplot (apt-get install -y gnuplot-nox). Reloads are dashed orange lines, the
# DJ's sessions blue bands, the warm-up grey. Separate from the run, so it can be drawn again.
#   bench/soak/plot.sh DIR [OUT.png]
set -euo pipefail

dir="${1:?usage: $0 DIR [OUT.png]}"
png="${2:-$dir/soak.png}"
command -v gnuplot >/dev/null || { echo "gnuplot is needed: apt-get install -y gnuplot-nox" >&2; exit 1; }
[[ -s "$dir/soak.csv" ]] || { echo "no samples in $dir/soak.csv" >&2; exit 1; }

# The events as gnuplot objects, drawn behind every panel: `set object`/`set arrow` persist in a multiplot.
marks="$(mktemp)"
trap 'rm -f "$marks"' EXIT
awk -F, 'NR > 1 {
    if ($2 == "warmup_end") printf "set object rect from 0, graph 0 to %s, graph 1 fc rgb \"#b0b0b0\" fs transparent solid 0.35 noborder behind\n", $1
    else if ($2 == "reload") printf "set arrow from %s, graph 0 to %s, graph 1 nohead lc rgb \"#e08000\" dt 2 lw 1\n", $1, $1
    else if ($2 == "dj_on") on = $1
    else if ($2 == "dj_off" && on != "") { printf "set object rect from %s, graph 0 to %s, graph 1 fc rgb \"#9cc2ff\" fs transparent solid 0.35 noborder behind\n", on, $1; on = "" }
} END { if (on != "") printf "set object rect from %s, graph 0 to graph 1, graph 1 fc rgb \"#9cc2ff\" fs transparent solid 0.35 noborder behind\n", on }' \
    "$dir/events.csv" > "$marks"

title="Groovecast soak, $(basename "$dir"): $(grep -c . "$dir/soak.csv" | awk '{print $1 - 1}') samples"
result="$(sed -n 's/^ *result: \([A-Z]*\).*/\1/p; s/^ *overall: //p' "$dir/verdict.txt" 2>/dev/null | tail -n 1)"
[[ -z "$result" ]] || title="$title, $result"
# A count that stays 0 (no ERROR line) is drawn, but gnuplot warns about its empty range.
gnuplot -e "csv='$dir/soak.csv'; marks='$marks'; png='$png'; heading='$title'" "$(dirname "$0")/plot.gp" \
    2> >(grep -v '^Warning: empty y range' >&2)
