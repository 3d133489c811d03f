# Sourced by the test scripts that need a Debian package the machine may lack (Chromium, PostgreSQL):
# installs it with apt-get as root, or through passwordless sudo, and says plainly what to do otherwise.
# Usage: apt_install <who is asking> <package>
apt_install() {
  local who="$1" package="$2"
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "$who: apt-get is not available; install $package by hand and retry." >&2
    return 1
  fi
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
      sudo=(sudo -n)
    else
      echo "$who: not root and no sudo; run 'apt-get install -y $package' as root and retry." >&2
      return 1
    fi
  fi
  # PostgreSQL's package would create and start a system cluster on port 5432; the tests only need binaries.
  if [ "$package" = postgresql ]; then
    "${sudo[@]}" mkdir -p /etc/postgresql-common/createcluster.d
    echo 'create_main_cluster = false' | "${sudo[@]}" tee /etc/postgresql-common/createcluster.d/hermes-tests.conf >/dev/null
  fi
  if ! { "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq \
    && "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$package"; } >/dev/null; then
    echo "$who: 'apt-get install $package' failed; install it by hand and retry." >&2
    return 1
  fi
}
