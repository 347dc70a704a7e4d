#!/usr/bin/env bash
# Counts what a netsim build costs per flit-hop in steady state, in
# numbers that do not depend on the machine's load: instructions, L1 data
# misses and last-level data misses (valgrind's cachegrind, simulating a
# 48 KiB L1 and a 32 MiB last-level cache), over the cycles between SCALE1
# and SCALE2 times a bench case's length, so the network's set-up and
# first fill cancel out.
#
# Usage: bench/misses.sh NETSIM CASE [SCALE1 SCALE2]
#   e.g. bench/misses.sh ./netsim seed004-flatfly        (0.1 and 0.2: about 2 minutes)
# Prints: CASE instructions/fh L1-misses/fh LL-misses/fh
# Needs valgrind (Debian's package). A large network is bound by its
# last-level misses (docs/performance.md): compare two builds on those.
set -euo pipefail
if [ $# -lt 2 ]; then
	echo "usage: bench/misses.sh NETSIM CASE [SCALE1 SCALE2]" >&2
	exit 2
fi
bin="$1" case="$2" s1="${3:-0.1}" s2="${4:-0.2}"
command -v valgrind >/dev/null || { echo "bench/misses.sh: valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }

# measure SCALE: prints flit-hops, instructions, D1 misses, LL data misses.
measure() {
	local out
	out="$(GOGC=off GODEBUG=asyncpreemptoff=1 valgrind --tool=cachegrind --cache-sim=yes --cachegrind-out-file=/dev/null \
		--D1=49152,12,64 --LL=33554432,16,64 "$bin" bench --child "$case" --scale "$1" 2>&1)"
	local fh ir d1 ll
	fh="$(grep -o '"flit_hops":[0-9]*' <<<"$out" | cut -d: -f2)"
	ir="$(awk '/I +refs:/ {gsub(",", "", $4); print $4}' <<<"$out")"
	d1="$(awk '/D1 +misses:/ {gsub(",", "", $4); print $4}' <<<"$out")"
	ll="$(awk '/LLd misses:/ {gsub(",", "", $4); print $4}' <<<"$out")"
	if [ -z "$fh" ] || [ -z "$ir" ] || [ -z "$d1" ] || [ -z "$ll" ]; then
		echo "bench/misses.sh: $bin bench --child $case --scale $1 failed:" >&2
		echo "$out" | tail -5 >&2
		exit 1
	fi
	echo "$fh $ir $d1 $ll"
}
read -r f1 i1 d1 l1 <<<"$(measure "$s1")"
read -r f2 i2 d2 l2 <<<"$(measure "$s2")"
awk -v c="$case" -v f="$((f2 - f1))" -v i="$((i2 - i1))" -v d="$((d2 - d1))" -v l="$((l2 - l1))" \
	'BEGIN { if (f <= 0) { print "bench/misses.sh: no flit-hops between the scales" > "/dev/stderr"; exit 1 }
	         printf "%s instructions/fh %.1f L1-misses/fh %.3f LL-misses/fh %.4f\n", c, i/f, d/f, l/f }'
