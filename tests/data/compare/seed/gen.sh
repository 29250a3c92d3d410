#!/bin/sh
# Regenerates the seed fixtures (deterministic; run from this dir): CSVs
# whose statistics are the numbers of the seeds' own tables.
#
# Each side is 5 runs mean + sd * d, d = -sqrt(1.6) -sqrt(.4) 0 sqrt(.4)
# sqrt(1.6): their mean and median are the mean, their sample standard
# deviation sd, so a table's "1.00 (  1.50)" or "[ 12.50]( 13.45)" comes
# back as the seed printed it.  Five runs, so that the Mann-Whitney test
# can call a change (it never can with fewer than four).
set -eu
hdr='label,kernel,workload,params,run,metric,value,unit,higher_is_better,sample,placement,cpu_usr,cpu_sys,cpu_idle,cpu_iowait,cpu_softirq,nr_cpus,autogroup_config,autogroup_enabled,cgroup,target,machine,time'

# side LABEL WORKLOAD PARAMS METRIC UNIT HIB MEAN CV MACHINE USR SYS
# (params and metric use ~ for a space; - for an empty field)
side() {
	awk -v l="$1" -v w="$2" -v p="$3" -v m="$4" -v u="$5" -v h="$6" \
	    -v mean="$7" -v cv="$8" -v mach="$9" -v us="${10}" -v sy="${11}" 'BEGIN {
		split("-1.2649110640673518 -0.6324555320336759 0 0.6324555320336759 1.2649110640673518", d, " ")
		if (p == "-") p = ""
		if (mach == "-") mach = ""
		if (us == "-") us = ""
		if (sy == "-") sy = ""
		gsub(/~/, " ", p); gsub(/~/, " ", m)
		for (r = 1; r <= 5; r++)
			printf "%s,%s,%s,%s,%d,%s,%.6f,%s,%d,0,,%s,%s,,,,,,,,,%s,\n",
				l, l, w, p, r, m, mean + mean * cv / 100 * d[r], u, h,
				us, sy, mach
	}'
}

# pair WORKLOAD PARAMS METRIC UNIT HIB BASE-CV CHANGE-PCT CV: baseline 1000,
# the other side as far off as "compare%" / "pct imp" (better is +)
pair() {
	side "$B" "$1" "$2" "$3" "$4" "$5" 1000 "$6" - - -
	side "$N" "$1" "$2" "$3" "$4" "$5" \
		"$(awk -v c="$7" -v h="$5" 'BEGIN { print 1000 * (1 + (h ? c : -c) / 100) }')" \
		"$8" - - -
}

# seed 004: Chen Yu's hackbench table (compare% > 0 is better)
B=baseline N=compare
{
echo "$hdr"
while read -r sub g bcv chg cv; do
	mode=${sub%-*} ipc=${sub#*-}
	pair hackbench "groups=$g~mode=$mode~ipc=$ipc" time s 0 "$bcv" "$chg" "$cv"
done <<'T'
process-pipe 1 1.50 +0.83 0.19
process-pipe 2 0.77 +0.82 0.52
process-pipe 4 0.20 -2.07 2.91
process-pipe 8 0.05 +3.48 0.06
process-sockets 1 2.90 -11.20 11.99
process-sockets 2 5.42 -1.39 1.70
process-sockets 4 0.17 -0.20 0.19
process-sockets 8 0.03 -0.05 0.11
threads-pipe 1 2.09 -1.63 0.44
threads-pipe 2 0.28 -0.21 1.48
threads-pipe 4 0.27 +0.13 0.63
threads-pipe 8 0.14 +5.04 0.04
threads-sockets 1 2.51 -1.86 2.08
threads-sockets 2 1.24 -0.60 3.83
threads-sockets 4 0.49 +0.07 0.46
threads-sockets 8 0.09 -0.04 0.08
T
} >004-hackbench.csv

# seed 003: K Prateek Nayak's schbench block (a Median, lower is better)
B=tip N=place-initial-fix
{
echo "$hdr"
while read -r n bcv imp cv; do
	pair schbench "workers=$n" "99th~percentile~latency" us 0 "$bcv" "$imp" "$cv"
done <<'T'
1 8.41 -5.41 13.45
2 5.29 12.50 13.21
4 1.32 -0.00 4.80
8 9.52 6.25 8.85
16 1.61 3.23 5.00
32 7.27 12.50 2.30
64 6.96 -6.94 4.94
128 3.41 1.44 2.69
256 32.95 19.17 16.38
512 3.20 1.66 2.35
T
} >003-schbench.csv

# seed 000: Hagar Hemdan's first table (autogroup enabled), with %Cpu(s)
{
echo "$hdr"
side without spawn - lps lps 1 28677.0 0.5 aarch64 3.2 96.7
side with spawn - lps lps 1 19860.7 0.5 aarch64 2.7 79.4
side without spawn - lps lps 1 27776.2 0.5 x86_64 3.1 96.9
side with spawn - lps lps 1 25020.6 0.5 x86_64 4.1 93.2
} >000-fork.csv

# the robot's will-it-scale table in Xing Zhengjun's answer
# (tests/data/format/lkp-will-it-scale-noise.mbox), labelled by commit
A=c2daff748f0ea954746e8e3465998b1090be7c30
C=bdfcae11403e5099769a7c8dc3262e3c4193edef
P='mode=thread~nr_task=50%~test=context_switch1'
{
echo "$hdr"
side $A will-it-scale "$P" per_thread_ops ops 1 161582 1 lkp-skl-fpga01 - -
side $C will-it-scale "$P" per_thread_ops ops 1 101435 1 lkp-skl-fpga01 - -
side $A will-it-scale "$P" workload ops 1 8402288 1 lkp-skl-fpga01 - -
side $C will-it-scale "$P" workload ops 1 5274649 1 lkp-skl-fpga01 - -
} >lkp-will-it-scale.csv

# seed 001: Dietmar Eggemann's w/o patch / w/ patch columns
{
echo "$hdr"
side base spawn - lps lps 1 21005 0.5 m7gd.16xlarge - -
side patched spawn - lps lps 1 27120 0.5 m7gd.16xlarge - -
side base spawn - lps lps 1 67675 0.5 i7-13700K - -
side patched spawn - lps lps 1 88806 0.5 i7-13700K - -
} >001-revert.csv
