#!/usr/bin/env bash
# Installs the real Slurm that netsim's `netsim slurm` tests run (package
# internal/slurmtest starts a one-node cluster): Debian's slurm-wlm
# (slurmctld, slurmd and the client commands) and munge (its
# authentication). It does nothing when they are installed already; it
# fails with a message naming what is missing when they cannot be
# installed. The packages ship services; nothing here starts them (the
# tests start their own daemons and stop them by process id). .ci/run
# calls it.
set -euo pipefail

packages=(slurm-wlm slurmctld slurmd slurm-client munge)
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
	echo "install-slurm: cannot install ${missing[*]}: $*" >&2
	echo "install-slurm: the tests of internal/slurmtest and cmd/netsim that run netsim slurm on a real Slurm need them (Debian packages ${packages[*]})" >&2
	exit 1
}

command -v apt-get >/dev/null || fail "no apt-get on this machine (expected Debian or a derivative)"
if [ "$(id -u)" -ne 0 ]; then
	fail "run as root (apt-get install needs it)"
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null || fail "apt-get update failed"
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null || fail "apt-get install failed"
for b in munged slurmctld slurmd sbatch squeue scancel sinfo; do
	command -v "$b" >/dev/null || fail "$b is not on PATH after the install"
done
echo "install-slurm: installed ${missing[*]}"
