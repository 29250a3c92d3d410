#!/bin/sh
# Regenerates the rows of the reply fixtures (deterministic; run from
# this directory): results.csv and the confirmation's and bisection's
# rows, as the run stage appends them, block by block, the base's rows
# first.  Each value is mean * (1 + cv% * e), e from a fixed list of
# normal deviates, so the files never change unless this script does.
# The workloads' params, metrics and units are those sched-bench and
# hackbench rows carry (bot/workloads/, bot/workload.c).
set -eu
hdr='label,kernel,workload,params,run,metric,value,unit,higher_is_better,sample,placement,cpu_usr,cpu_sys,cpu_idle,cpu_iowait,cpu_softirq,nr_cpus,autogroup_config,autogroup_enabled,cgroup,target,machine,time'
SPAWN='spawn copies=2~duration=5~passes=1 lps lps 1 free'
PING1='pingpong pairs=1~mode=processes~duration=5~warmup=2 handoffs handoffs/s 1 free'
PING2='pingpong pairs=2~mode=processes~duration=5~warmup=2 handoffs handoffs/s 1 free'
PING4='pingpong pairs=4~mode=processes~duration=5~warmup=2 handoffs handoffs/s 1 free'
SPAWN4='spawn copies=4~duration=5~passes=1 lps lps 1 free'
HACK='hackbench groups=4~fds=20~loops=500~size=100~mode=process~ipc=socket time s 0 -'

# row LABEL BLOCK MACHINE SEED WORKLOAD PARAMS METRIC UNIT HIB PLACEMENT MEAN CV
# (the target column $TARGET, default qemu; nr_cpus $CPUS, default 2)
row() {
	awk -v spec="$*" -v cpus="${CPUS:-2}" -v target="${TARGET:-qemu}" 'BEGIN {
		split("0.31 -1.12 0.84 -0.47 1.53 -0.21 0.66 -1.38 0.05 1.02 -0.73 0.29", e, " ")
		split(spec, a, " ")
		d = e[(a[4] + a[2] * 5) % 12 + 1]
		p = a[6]; gsub(/~/, " ", p)
		pl = a[10] == "-" ? "" : a[10]
		k = a[1] == "base" ? "6.1.192" : "6.1.192+"
		printf "%s,%s,%s,%s,%d,%s,%.2f,%s,%d,0,%s,,,,,,%d,y,1,/,%s,%s,2026-11-29T12:00:00Z\n",
			a[1], k, a[5], p, a[2], a[7], a[11] * (1 + a[12] / 100 * d),
			a[8], a[9], pl, cpus, target, a[3]
	}'
}

# blocks MACHINE "WORKLOAD-SPEC BASE-MEAN HEAD-MEAN CV" ...: five blocks
blocks() {
	m=$1
	shift
	echo "$hdr"
	for b in 1 2 3 4 5; do
		for side in base patched; do
			i=0
			for w in "$@"; do
				i=$((i + 1))
				# shellcheck disable=SC2086
				row $side $b "$m" $((i * 3 + ${#side})) $(spec "$side" $w)
			done
		done
	done
}

# spec SIDE WORKLOAD PARAMS METRIC UNIT HIB PLACEMENT BASE HEAD CV
spec() {
	if [ "$1" = base ]; then mean=$8; else mean=$9; fi
	echo "$2 $3 $4 $5 $6 $7 $mean ${10}"
}

blocks vm "$SPAWN 24131 24190 1" "$PING1 180532 180990 1" >tested/results.csv
blocks vm "$PING1 180532 195516 1" "$PING2 301220 325310 1" \
	"$PING4 355104 383512 1" "$HACK 0.41 0.405 2" >improvement/results.csv
blocks vm "$SPAWN 24131 21139 1" "$PING1 180532 181019 1" >regression/results.csv
blocks vm "$SPAWN 24090 21180 1" "$PING1 180610 180905 1" >regression/confirm.csv
blocks vm "$SPAWN 24131 24178 1" "$PING1 180532 180610 1" |
	sed 's/^patched,6.1.192+,/base+1,6.1.192+,/' >regression/bisect-1.csv
blocks qemu-tcg "$SPAWN 2413 2398 2" "$PING1 18053 18110 2" >emulated/results.csv
blocks vm "$SPAWN 24131 24990 18" "$PING1 180532 171990 15" >noisy/results.csv
blocks vm "$SPAWN 24131 21139 1" "$PING1 180532 181019 1" >merged-still/results.csv
blocks vm "$SPAWN 24131 24190 1" "$PING1 180532 180990 1" >merged-gone/results.csv
cp regression/confirm.csv merged-still/confirm.csv

# A job on two QEMU targets, 2 and 4 CPUs (job.target q2,q4): each
# target's blocks in turn, its name in the target column; a regression
# on both, larger on 2 CPUs, confirmed on both; the bisection on the
# first.
multi() {
	(TARGET=q2 CPUS=2 && export TARGET CPUS && blocks qemu-kvm-smp2 "$@")
}
multi4() {
	(TARGET=q4 CPUS=4 && export TARGET CPUS && blocks qemu-kvm-smp4 "$@" | sed 1d)
}
{ multi "$SPAWN 24131 21139 1" "$PING1 180532 181019 1" &&
  multi4 "$SPAWN4 48262 46330 1" "$PING1 180532 180990 1"; } >multi-target/results.csv
{ multi "$SPAWN 24090 21180 1" "$PING1 180610 180905 1" &&
  multi4 "$SPAWN4 48180 46260 1" "$PING1 180610 180805 1"; } >multi-target/confirm.csv
multi "$SPAWN 24131 24178 1" "$PING1 180532 180610 1" |
	sed 's/^patched,6.1.192+,/base+1,6.1.192+,/' >multi-target/bisect-1.csv
