#!/usr/bin/env bash
# Installs the real InfiniBand programs that netsim's fabric tests run
# (package internal/ibsim): OpenSM, the ibsim fabric simulator with its
# umad2sim library, and infiniband-diags (ibnetdiscover, dump_lfts,
# dump_fts, smpquery, saquery), all from Debian's packages. It does nothing
# when they are installed already; it fails with a message naming what is
# missing when they cannot be installed. .ci/run calls it.
set -euo pipefail

packages=(opensm ibsim-utils libumad2sim0 infiniband-diags)
missing=()
for p in "${packages[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
		missing+=("$p")
	fi
done
if [ ${#missing[@]} -eq 0 ]; then
	exit 0
fi

fail() {
	echo "install-infiniband: cannot install ${missing[*]}: $*" >&2
	echo "install-infiniband: the tests of internal/ibsim, routing and cmd/netsim that run OpenSM on ibsim need them (Debian packages ${packages[*]})" >&2
	exit 1
}

command -v apt-get >/dev/null || fail "no apt-get on this machine (expected Debian or a derivative)"
if [ "$(id -u)" -ne 0 ]; then
	fail "run as root (apt-get install needs it)"
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null || fail "apt-get update failed"
# The opensm package ships a service; nothing here starts it (the tests
# start their own OpenSM on a simulated fabric and stop it by process id).
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null || fail "apt-get install failed"
for b in opensm ibsim ibnetdiscover dump_lfts dump_fts smpquery saquery; do
	command -v "$b" >/dev/null || fail "$b is not on PATH after the install"
done
test -f /usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so -o -n "$(dpkg -L libumad2sim0 | grep 'libumad2sim.so$')" || fail "libumad2sim.so is missing after the install"
echo "install-infiniband: installed ${missing[*]}"
