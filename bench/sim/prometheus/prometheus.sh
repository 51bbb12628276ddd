#!/usr/bin/env bash
# The real Prometheus server of `./run sim --prometheus` (bench/sim/README.md, "Metrics").
#
#   prometheus.sh install              builds Prometheus (go install of
#                                      github.com/prometheus/prometheus/cmd/prometheus@v0.316.0,
#                                      about six minutes the first time, cached after) into
#                                      target/sim-tools/bin and prints the binary's path
#   prometheus.sh path                 prints the installed binary's path, or fails
#   prometheus.sh start DIR PORT [CPU] starts it on 127.0.0.1:PORT (pinned to core CPU if
#                                      given) with its config, targets/, data/, log and pid
#                                      file in DIR; waits until /-/ready answers; prints its URL
#   prometheus.sh stop DIR             stops the one started in DIR and waits for it to exit
#
# Environment: PROMETHEUS names another binary; SIM_TOOLS another install directory
# (default target/sim-tools); SIM_PROMETHEUS_TIMEOUT the readiness and stop timeout in
# seconds (default 60). The HTTP API works without the web UI's assets, which `go install`
# does not build.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
module=github.com/prometheus/prometheus
version=v0.316.0
tools=${SIM_TOOLS:-$root/target/sim-tools}
bin=${PROMETHEUS:-$tools/bin/prometheus}
timeout=${SIM_PROMETHEUS_TIMEOUT:-60}

die() {
  echo "prometheus.sh: $*" >&2
  exit 1
}

# Whether $bin is a build of $module at $version (go version -m reads the build info).
installed() {
  [ -x "$bin" ] && go version -m "$bin" 2>/dev/null | grep -q "^[[:space:]]*mod[[:space:]]*$module[[:space:]]*$version[[:space:]]"
}

install() {
  if ! installed; then
    [ -z "${PROMETHEUS:-}" ] || die "PROMETHEUS=$bin is not a build of $module $version"
    echo "prometheus.sh: building $module/cmd/prometheus@$version into $tools/bin (first time: several minutes)" >&2
    mkdir -p "$tools/bin"
    GOBIN="$tools/bin" go install "$module/cmd/prometheus@$version" >&2
    installed || die "go install did not produce $bin at $version"
  fi
  echo "$bin"
}

start() {
  local dir=$1 port=$2 cpu=${3:-}
  installed || die "no Prometheus $version at $bin: run '$0 install' first"
  [[ $port =~ ^[0-9]+$ ]] || die "port $port: want a number"
  mkdir -p "$dir/targets" "$dir/data"
  dir=$(cd "$dir" && pwd)
  if [ -f "$dir/prometheus.pid" ] && kill -0 "$(cat "$dir/prometheus.pid")" 2>/dev/null; then
    die "one is already running from $dir (pid $(cat "$dir/prometheus.pid"))"
  fi
  sed "s|@TARGETS@|$dir/targets|" "$here/prometheus.yml.in" > "$dir/prometheus.yml"
  local pin=()
  [ -z "$cpu" ] || pin=(taskset -c "$cpu")
  # setsid: its own session, so the caller's terminal signals do not reach it; `stop`
  # ends it by its pid.
  setsid "${pin[@]}" "$bin" \
    --config.file="$dir/prometheus.yml" \
    --storage.tsdb.path="$dir/data" \
    --web.listen-address="127.0.0.1:$port" \
    < /dev/null > "$dir/prometheus.log" 2>&1 &
  echo $! > "$dir/prometheus.pid"
  local url="http://127.0.0.1:$port" deadline=$((SECONDS + timeout))
  until curl -fsS -m 2 "$url/-/ready" > /dev/null 2>&1; do
    if ! kill -0 "$(cat "$dir/prometheus.pid")" 2>/dev/null; then
      tail -n 20 "$dir/prometheus.log" >&2
      die "Prometheus exited before it was ready (log: $dir/prometheus.log)"
    fi
    if ((SECONDS >= deadline)); then
      tail -n 20 "$dir/prometheus.log" >&2
      stop "$dir"
      die "Prometheus not ready after ${timeout} s (log: $dir/prometheus.log)"
    fi
    sleep 0.2
  done
  echo "$url"
}

stop() {
  local dir=$1 pid
  [ -f "$dir/prometheus.pid" ] || return 0
  pid=$(cat "$dir/prometheus.pid")
  rm -f "$dir/prometheus.pid"
  kill -TERM "$pid" 2>/dev/null || return 0
  local deadline=$((SECONDS + timeout))
  while kill -0 "$pid" 2>/dev/null; do
    if ((SECONDS >= deadline)); then
      kill -KILL "$pid" 2>/dev/null || true
      die "Prometheus (pid $pid) did not stop in ${timeout} s: killed"
    fi
    sleep 0.1
  done
}

case "${1:-}" in
  install) install ;;
  path) installed || die "no Prometheus $version at $bin: run '$0 install'"; echo "$bin" ;;
  start) [ $# -ge 3 ] || die "usage: $0 start DIR PORT [CPU]"; start "$2" "$3" "${4:-}" ;;
  stop) [ $# -eq 2 ] || die "usage: $0 stop DIR"; stop "$2" ;;
  *) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
