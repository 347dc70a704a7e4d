#!/bin/sh
# Regenerates the Λ table of README "Seed 002: Λ of the table engines":
# runs netsim congestion on every file here (1,000 seeded random
# bisections each) and prints one markdown row per network, Λ =
# hist_acc_band of bisect per routing.
#   sh studies/seed002/table.sh            (from the repository root)
set -e
dir=$(dirname "$0")
bin=${NETSIM:-}
if [ -z "$bin" ]; then
	bin=$(mktemp -d)/netsim
	go build -o "$bin" ./cmd/netsim
fi
echo "| network | hosts | minhop | updn | sssp | dfsssp | ftree | dmodk |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for f in xgft64 xgft128 xgft256 xgft512 xgft1024 xgft2048 xgft4096 kary2tree kary3tree deimos; do
	"$bin" congestion "$dir/$f.toml" 2>/dev/null
done | awk '
/, routing .*hosts$/ { split($0, a, ", routing "); net = a[1]; split(a[2], b, ":"); alg = b[1]
	h = $0; sub(/ hosts$/, "", h); sub(/.* of /, "", h); hosts[net] = h
	if (!(net in seen)) { seen[net] = 1; order[++n] = net } }
$1 == "bisect" && $2 == "hist_acc_band" { v[net, alg] = $3 }
END { for (i = 1; i <= n; i++) { k = order[i]; row = "| " k " | " hosts[k]
	split("minhop updn sssp dfsssp ftree dmodk", algs, " ")
	for (j = 1; j <= 6; j++) row = row " | " ((k, algs[j]) in v ? v[k, algs[j]] : "—")
	print row " |" } }'
