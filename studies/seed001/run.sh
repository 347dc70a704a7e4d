#!/bin/sh
# Regenerates seed 001's Figures 6 and 7 and its §5.3 parameter study at
# full scale: runs the files of this folder into OUT (default
# out/seed001, removed first so that no result of an older simulator
# is resumed), copies the charts into this folder and prints the tables of the
# README with the commit that made them.
set -e
cd "$(dirname "$0")/../.."
out=${1:-out/seed001}
rm -rf "$out"
mkdir -p "$out"
commit="$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . ':!docs' ':!studies/seed001/*.png' || echo ' (modified)')"
go build -o "$out/netsim" ./cmd/netsim
n="$out/netsim"
"$n" run -q studies/seed001/fig6*.toml -o "$out/fig6" >"$out/fig6.txt"
"$n" run -q studies/seed001/params.toml -o "$out/params" >"$out/params.txt"
cp "$out/fig6/ebb-bisection.png" studies/seed001/ebb-bisection.png
cp "$out/fig6/ebb-bridge.png" studies/seed001/ebb-bridge.png
echo "commit $commit"
for v in avg min max; do
	echo
	"$n" table "$out/fig6/results.jsonl" --value "$v"
done
echo
"$n" table "$out/params/results.jsonl" --rows hosts,threshold --cols probability
