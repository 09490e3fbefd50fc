# gnuplot script for bench/soak/plot.sh (variables csv, marks, png, heading): one panel per series of
# soak.csv, by column name, each from 0 so that "flat" reads as flat, over the run's events.
set terminal pngcairo size 1400,1150 font "DejaVu Sans,10"
set output png
set datafile separator ","
set datafile columnheaders
set grid lc rgb "#cccccc"
set xlabel "time (s)"
set yrange [0:1<*]  # from 0, at least up to 1 (a series of zeros has no range)
set offsets graph 0, graph 0, graph 0.12, graph 0   # a flat series would sit on the top border otherwise
set key top left opaque box
load marks
set multiplot layout 4,2 title heading."\n(grey: warm-up; blue: DJ on air; dashed orange: reload)" font ",12"
plot csv using "t_s":"rss_mb" with lines lw 2 lc rgb "#1f77b4" title "RSS (MB)"
plot csv using "t_s":"heap_after_gc_mb" with linespoints pt 7 ps 0.4 lw 2 lc rgb "#2ca02c" title "heap after a full GC (MB)"
plot csv using "t_s":"threads" with steps lw 2 lc rgb "#9467bd" title "threads"
plot csv using "t_s":"fds" with steps lw 2 lc rgb "#8c564b" title "file descriptors"
plot csv using "t_s":"registrations" with steps lw 2 lc rgb "#d62728" title "callback registrations (metrics)"
plot csv using "t_s":"cpu_pct" with lines lw 2 lc rgb "#ff7f0e" title "CPU (% of one core, over each sample interval)"
set key center right
plot csv using "t_s":"listeners" with steps lw 2 lc rgb "#17becf" title "listeners on /radio (metrics)", \
     csv using "t_s":"steady_connected" with steps lw 2 lc rgb "#1f77b4" title "steady listeners connected", \
     csv using "t_s":"icecast_connected" with steps lw 2 lc rgb "#7f7f7f" title "icecast listeners connected"
set key top left
plot csv using "t_s":"errors" with steps lw 2 lc rgb "#d62728" title "ERROR lines (total)", \
     csv using "t_s":"warnings" with steps lw 2 lc rgb "#bcbd22" title "WARN lines (total)"
unset multiplot
