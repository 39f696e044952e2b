#!/usr/bin/env bash
# Starts a PostgreSQL cluster configured as docker-compose.yml configures production's, for
# benchmarks on a machine whose own cluster runs the stock settings (128 MB of shared buffers), and
# prints its server URL:
#
#   DATABASE_URL=$(bench/tuned-postgres.sh) npm run bench:read
#
# The settings are read from the `command:` of the postgres service in docker-compose.yml, so the
# bench measures the configuration users run. Debian's pg_createcluster/pg_ctlcluster (as on the
# dev and CI machines); the cluster is `<version>/bench` on BENCH_PG_PORT (default 5440), created once
# and reused, trust auth on 127.0.0.1 like the machine's own. `--stop` stops it, `--drop` removes it.
set -euo pipefail
cd "$(dirname "$0")/.."

port="${BENCH_PG_PORT:-5440}"
name=bench
version="$(ls /usr/lib/postgresql | sort -n | tail -1)"
[ -n "$version" ] || { echo "no PostgreSQL server under /usr/lib/postgresql" >&2; exit 1; }
command -v pg_createcluster >/dev/null || { echo "pg_createcluster not found (Debian's postgresql-common)" >&2; exit 1; }

case "${1:-}" in
  --stop) pg_ctlcluster --skip-systemctl-redirect "$version" "$name" stop || true; exit 0 ;;
  --drop) pg_dropcluster --stop "$version" "$name" || true; exit 0 ;;
esac

# "-c", "shared_buffers=2GB", "-c", ... -> one setting per line.
settings="$(grep -E '^\s*command:\s*\["postgres"' docker-compose.yml | grep -oE '"[a-z_]+=[^"]+"' | tr -d '"')"
[ -n "$settings" ] || { echo "no postgres command settings found in docker-compose.yml" >&2; exit 1; }

if ! pg_lsclusters -h | awk '{print $1"/"$2}' | grep -qx "$version/$name"; then
  pg_createcluster "$version" "$name" --port "$port" -- --auth=trust --username=postgres >&2
fi
conf="/etc/postgresql/$version/$name/conf.d/bench-tuning.conf"
{
  echo "# written by bench/tuned-postgres.sh from docker-compose.yml"
  echo "listen_addresses = '127.0.0.1'"
  printf '%s\n' "$settings" | sed -E "s/^([a-z_]+)=(.*)$/\1 = '\2'/"
} > "$conf"
# Settings such as shared_buffers need a restart to change.
pg_ctlcluster --skip-systemctl-redirect "$version" "$name" restart >&2 2>/dev/null || pg_ctlcluster --skip-systemctl-redirect "$version" "$name" start >&2
for _ in $(seq 1 50); do
  pg_isready -q -h 127.0.0.1 -p "$port" && break
  sleep 0.2
done
pg_isready -q -h 127.0.0.1 -p "$port" || { echo "the bench cluster did not come up on port $port" >&2; exit 1; }
echo "postgres://postgres@127.0.0.1:$port/postgres"
