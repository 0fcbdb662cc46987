#!/bin/sh
# The image's entrypoint: a secret may be handed over as a file instead of in the environment.
# For each variable below, VAR_FILE names a file (a compose or Kubernetes secret, mounted at
# /run/secrets/...) whose content becomes VAR; setting both is refused, so it is clear which one
# counts. Then the command (the server, or `node apps/server/src/cli/main.ts ...`) replaces this shell.
set -eu

for name in DATABASE_URL DATABASE_OWNER_URL AUDIT_CHECKPOINT_KEY METRICS_TOKEN SMTP_URL; do
  file_name="${name}_FILE"
  eval "file=\${${file_name}:-}"
  [ -n "${file}" ] || continue
  eval "already=\${${name}:-}"
  if [ -n "${already}" ]; then
    echo "cdms-entrypoint: both ${name} and ${file_name} are set; set only one" >&2
    exit 2
  fi
  if [ ! -r "${file}" ]; then
    echo "cdms-entrypoint: ${file_name} names ${file}, which cannot be read" >&2
    exit 2
  fi
  # $(cat) drops the trailing newline an editor leaves at the end of the file.
  value=$(cat "${file}")
  export "${name}=${value}"
  unset "${file_name}"
done

exec "$@"
