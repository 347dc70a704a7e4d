#!/usr/bin/env bash
# Refreshes cmd/netsim/default.pgo, the CPU profile that `go build` and
# `go install` of netsim use for profile-guided optimisation (inlining and
# devirtualising the hot calls; docs/performance.md, "Profile-guided
# build"). The profile is merged from two kinds of runs, so it weighs both
# the hot path of large points and the code of every routing family:
#
#   1. the benchmark suite's cases (netsim bench's points, the package
#      bench's BenchmarkSuite);
#   2. saturation searches of the scaled seed-004 and seed-001 studies
#      over the routings of each family, under short windows
#      (netsim run --cpuprofile).
#
# Usage: bench/pgo.sh   (about 3 minutes on 2 cores)
# Results do not depend on the profile: a build with a stale one, or with
# -pgo=off, gives the same bytes, only slower. Commit the new profile with
# the alternated measurements that justify it.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

go build -o "$tmp/netsim" ./cmd/netsim
go test -c -o "$tmp/bench.test" ./bench

# 1. The suite: every case once, at its full length (BenchmarkSuite).
"$tmp/bench.test" -test.run '^$' -test.bench '^BenchmarkSuite/' -test.benchtime 1x \
	-test.cpuprofile "$tmp/suite.prof" >/dev/null

# 2. Searches over each family's routings, short windows.
s=studies/seed004
short=(--set sim.warmup=1000 --set sim.measure=1000 --set sim.drain=500 --set sweep.resolution=16 -q -j 2)
run() {
	local name="$1"
	shift
	"$tmp/netsim" run "$@" "${short[@]}" --cpuprofile "$tmp/run-$name.prof" -o "$tmp/out-$name" >/dev/null
}
run flatfly "$s/scaled/flatfly.toml"
run dragonfly "$s/scaled/dragonfly.toml" --set 'routing.algorithm=["static","G","GSID","distance+3","deflection+4"]'
run hypercube "$s/scaled/hypercube.toml"
run torus "$s/scaled/torus3d.toml" "$s/scaled/torus4d.toml"
run sfxff "$s/scaled/sfxff1.toml" --set 'routing.algorithm=["dor","ador","distance+4"]'
"$tmp/netsim" run studies/seed001/scaled/fig6.toml studies/seed001/scaled/fig6-probing.toml -q -j 2 \
	--cpuprofile "$tmp/run-seed001.prof" -o "$tmp/out-seed001" >/dev/null

go tool pprof -proto "$tmp"/*.prof >"$tmp/merged.pgo" 2>/dev/null
mv "$tmp/merged.pgo" cmd/netsim/default.pgo
echo "bench/pgo.sh: wrote cmd/netsim/default.pgo ($(wc -c <cmd/netsim/default.pgo) bytes) from $(ls "$tmp"/*.prof | wc -l) profiles"
