#!/usr/bin/env bash
# The go project's side of the interop exchange (conformance/projects/run.py copies
# this directory into the project the guide built):
#
#   bash interop.sh write EXCH   # writes EXCH/go.<Message>.bin
#   bash interop.sh read EXCH    # checks every EXCH/<other>.<Message>.bin
#
# The program (interop/main.go) uses the project's generated package as a user would.
set -euo pipefail
cd "$(dirname "$0")"
go run ./interop "$@"
