#!/usr/bin/env bash
# Sourced by .ci/run: makes sure the `node` on PATH is the version package.json's "engines" asks for
# (the version the dependencies need). When the machine's Node is older, the official Linux build of
# the newest release of that major line is fetched from the npm registry (package
# node-linux-<arch>, the binary the `node` npm package installs) into a cache and put first on PATH.

required=$(sed -n 's/.*"node": ">=\([0-9.]*\)".*/\1/p' package.json | head -n 1)
if [ -z "${required}" ]; then
  echo "package.json has no engines.node of the form \">=X.Y\"" >&2
  exit 1
fi

node_satisfies() {
  command -v node >/dev/null 2>&1 || return 1
  node -e '
    const [need, have] = [process.argv[1], process.versions.node].map((v) => v.split(".").map(Number));
    for (let i = 0; i < 3; i++) {
      if ((have[i] ?? 0) > (need[i] ?? 0)) process.exit(0);
      if ((have[i] ?? 0) < (need[i] ?? 0)) process.exit(1);
    }
  ' "${required}"
}

if ! node_satisfies; then
  major=${required%%.*}
  case "$(uname -m)" in
    x86_64) arch=x64 ;;
    aarch64) arch=arm64 ;;
    *) echo "no Node.js ${required} for $(uname -m); install it and run again" >&2; exit 1 ;;
  esac
  cache="${XDG_CACHE_HOME:-$HOME/.cache}/cdms-ci/node-${major}-${arch}"
  if [ ! -x "${cache}/package/bin/node" ]; then
    echo "Node.js $(node --version 2>/dev/null || echo none) is older than ${required}: fetching node-linux-${arch}@${major}"
    rm -rf "${cache}" && mkdir -p "${cache}"
    (cd "${cache}" && npm pack "node-linux-${arch}@${major}" --silent >/dev/null && tar xzf node-linux-*.tgz && rm node-linux-*.tgz)
  fi
  export PATH="${cache}/package/bin:${PATH}"
  node_satisfies || { echo "Node.js ${required} or newer is needed; $(node --version) found" >&2; exit 1; }
fi
echo "node $(node --version), npm $(npm --version) (package.json asks for node >=${required})"
