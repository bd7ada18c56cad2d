# Sourced (bash) by Benchmarks/instructions-per-handoff and scripts/package/function-order, the one
# implementation of what both do: a release appflipd under valgrind's callgrind, with the C live app of
# Benchmarks/CBaseline. The caller sets NAME (for messages), ROOT (the checkout) and BIN (the release build
# folder); this makes WORK, a temporary folder removed at exit with every process started here, and SOCKET.
# Then: callgrind_start VALGRIND_OPTION... -- APPFLIPD_OPTION... (sets DAEMON, waits for the socket), and
# callgrind_live_app (registers c-liveapp for live.bench); WORK holds c-load, the log and the dumps
# (`callgrind`, then `callgrind.1`… for each `callgrind_control --dump`).

for tool in valgrind callgrind_control cc objcopy python3; do
  command -v "$tool" >/dev/null || { echo "$NAME: needs $tool (scripts/setup installs it)" >&2; exit 1; }
done
WORK=$(mktemp -d "${TMPDIR:-/tmp}/$NAME.XXXXXX")
SOCKET=$WORK/appflipd.sock
PIDS=()
callgrind_cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$WORK"
}
trap callgrind_cleanup EXIT
for tool in c-load c-liveapp; do cc -O2 -o "$WORK/$tool" "$ROOT/Benchmarks/CBaseline/$tool.c"; done
# Valgrind 3.19 gives up on the toolchain's DWARF 5; a profile needs only the symbol table.
objcopy --strip-debug "$BIN/appflipd" "$WORK/appflipd"

callgrind_failed() {
  echo "$NAME: $1; appflipd's log:" >&2
  cat "$WORK/appflipd.log" >&2
  exit 1
}

callgrind_start() {
  local options=()
  while [ "$1" != -- ]; do options+=("$1"); shift; done
  shift
  valgrind --tool=callgrind --callgrind-out-file="$WORK/callgrind" --compress-strings=no --compress-pos=no \
    "${options[@]}" "$WORK/appflipd" --socket "$SOCKET" "$@" >"$WORK/appflipd.log" 2>&1 &
  DAEMON=$!
  PIDS+=("$DAEMON")
  # Bounded wait: under callgrind a start takes seconds, not milliseconds.
  for _ in $(seq 600); do
    [ -S "$SOCKET" ] && return
    kill -0 "$DAEMON" 2>/dev/null || break
    sleep 0.1
  done
  callgrind_failed "appflipd did not start under callgrind"
}

callgrind_live_app() {
  "$WORK/c-liveapp" "$SOCKET" live.bench BENCH.live >"$WORK/liveapp.log" 2>&1 &
  PIDS+=("$!")
  for _ in $(seq 300); do grep -q ready "$WORK/liveapp.log" && return; sleep 0.1; done
  callgrind_failed "the live app did not register"
}
