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
. "$(dirname "$0")/debian-install.sh"

install_packages install-slurm "the tests of internal/slurmtest and cmd/netsim that run netsim slurm on a real Slurm" \
	slurm-wlm slurmctld slurmd slurm-client munge -- \
	munged slurmctld slurmd sbatch squeue scancel sinfo
