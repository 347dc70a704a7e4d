# Sourced by the install-*.sh scripts: install_packages NAME WHY PACKAGE...
# -- PROGRAM... installs the Debian packages not installed yet, as root,
# and checks that the programs are then on PATH. It does nothing when
# every package is installed; it exits with a message naming what is
# missing (NAME: the script, WHY: which tests need the packages) when
# they cannot be installed.

install_packages() {
	local name=$1 why=$2
	shift 2
	local packages=() programs=() missing=()
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do
		packages+=("$1")
		shift
	done
	[ $# -gt 0 ] && shift
	programs=("$@")
	for p in "${packages[@]}"; do
		if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
			missing+=("$p")
		fi
	done
	if [ ${#missing[@]} -eq 0 ]; then
		return 0
	fi
	fail() {
		echo "$name: cannot install ${missing[*]}: $*" >&2
		echo "$name: $why need them (Debian packages ${packages[*]})" >&2
		exit 1
	}
	command -v apt-get >/dev/null || fail "no apt-get on this machine (expected Debian or a derivative)"
	if [ "$(id -u)" -ne 0 ]; then
		fail "run as root (apt-get install needs it)"
	fi
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >/dev/null || fail "apt-get update failed"
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null || fail "apt-get install failed"
	for b in "${programs[@]}"; do
		command -v "$b" >/dev/null || fail "$b is not on PATH after the install"
	done
	echo "$name: installed ${missing[*]}"
}
