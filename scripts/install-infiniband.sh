#!/usr/bin/env bash
# Installs the real InfiniBand programs that netsim's fabric tests run
# (package internal/ibsim): OpenSM, the ibsim fabric simulator with its
# umad2sim library, and infiniband-diags (ibnetdiscover, dump_lfts,
# dump_fts, smpquery, saquery), all from Debian's packages. It does nothing
# when they are installed already; it fails with a message naming what is
# missing when they cannot be installed. The opensm package ships a
# service; nothing here starts it (the tests start their own OpenSM on a
# simulated fabric and stop it by process id). .ci/run calls it.
set -euo pipefail
. "$(dirname "$0")/debian-install.sh"

install_packages install-infiniband "the tests of internal/ibsim, routing and cmd/netsim that run OpenSM on ibsim" \
	opensm ibsim-utils libumad2sim0 infiniband-diags -- \
	opensm ibsim ibnetdiscover dump_lfts dump_fts smpquery saquery
if ! test -f /usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so && ! dpkg -L libumad2sim0 | grep -q 'libumad2sim.so$'; then
	echo "install-infiniband: libumad2sim.so is missing (Debian package libumad2sim0)" >&2
	exit 1
fi
