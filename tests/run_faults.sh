#!/bin/sh
# run_faults.sh SERVELINT: `servelint run` under faults (the robustness
# review's run-faults-results.md). Each engine stand-in mode (serve; one that
# ignores SIGTERM; a daemonising one whose grandchild leaves for its own
# session, ignores SIGTERM and holds a port; one with a child in its own
# group that ignores SIGTERM), with a probe whose shell forks, is ended by
# SIGHUP or SIGKILL to servelint; after each, no process of the run may be
# left (none carries the test's tag) and none of its ports may listen. Also:
# --grace and --timeout refuse nan and inf, and a second signal cuts the
# grace short. Every wait is bounded polling, never a fixed sleep.
set -u
. "$(dirname "$0")/lib.sh"
data=$root/tests/data/run
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
py=$(command -v python3)
[ -n "$py" ] || { echo "FAIL python3 is needed for the stand-ins"; exit 1; }
mkdir "$T/bin"
printf '#!/bin/sh\nexec %s %s vllm "$@"\n' "$py" "$data/standin.py" > "$T/bin/vllm"
chmod +x "$T/bin/vllm"
PATH=$T/bin:$PATH
tag="STANDIN_TAG_$$"
export PATH
free_port() { "$py" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
listening() { "$py" -c 'import socket,sys; s=socket.socket(); sys.exit(0 if s.connect_ex(("127.0.0.1",int(sys.argv[1])))==0 else 1)' "$1"; }
left() { grep -l "STANDIN_TAG=$tag" /proc/[0-9]*/environ 2>/dev/null | wc -l; }
# wait_for SECONDS COMMAND...: polls COMMAND every 0.1 s until it succeeds
wait_for() {
	n=$(($1 * 10)); shift
	while ! "$@"; do
		n=$((n - 1)); [ $n -gt 0 ] || return 1
		sleep 0.1
	done
}
gone() { [ "$(left)" -eq 0 ] && ! listening "$PORT" && ! listening $((PORT + 1)); }
alive() { kill -0 "$1" 2>/dev/null; }
dead() { ! kill -0 "$1" 2>/dev/null; }

for mode in serve ignore-term daemon fork-child; do
	for sig in HUP KILL; do
		name="$mode-SIG$sig"
		PORT=$(free_port); export PORT
		rm -f "$T/probe-started"
		env STANDIN_TAG=$tag STANDIN_MODE=$mode "$bin" run --logs "$T/logs" --grace 2 --set model-path=/m \
			--probe "touch $T/probe-started; sleep 60; true" "$data/agg" > "$T/out" 2>&1 &
		pid=$!
		# the run is up: the probe runs (and the daemon holds its port)
		if ! wait_for 30 test -e "$T/probe-started" ||
			{ [ $mode = daemon ] && ! wait_for 30 listening $((PORT + 1)); }; then
			ko "$name: the run never came up: $(cat "$T/out")"
			kill -KILL $pid 2>/dev/null
		else
			[ "$(left)" -gt 2 ] && ok || ko "$name: the run's processes were never seen"
			kill -$sig $pid
			wait_for 30 dead $pid || { kill -KILL $pid; ko "$name: servelint still running 30 s later"; }
			wait $pid; rc=$?
			if [ $sig = HUP ]; then
				[ $rc -eq 129 ] && grep -q 'interrupted by Hangup' "$T/out" && ok || ko "$name: exit $rc $(cat "$T/out")"
			else
				[ $rc -eq 137 ] && ok || ko "$name: exit $rc"
			fi
		fi
		if wait_for 30 gone; then ok; else
			ko "$name: left $(left) processes; port $PORT $(listening $PORT && echo listens || echo free), $((PORT + 1)) $(listening $((PORT + 1)) && echo listens || echo free)"
			grep -l "STANDIN_TAG=$tag" /proc/[0-9]*/environ 2>/dev/null | sed 's,/environ,,; s,/proc/,,' | xargs -r kill -KILL
		fi
	done
done

# --grace and --timeout take finite seconds: nan, inf and negative are usage errors
for v in nan inf -inf -1 1e999; do
	for opt in --grace --timeout; do
		out=$("$bin" run --logs "$T/logs" $opt "$v" --set model-path=/m "$data/agg" 2>&1); rc=$?
		[ $rc -eq 3 ] && echo "$out" | grep -q -e "$opt takes seconds" && ok || ko "$opt $v: exit $rc $(echo "$out" | head -1)"
	done
done
[ "$(left)" -eq 0 ] && ok || ko "a refused --grace started something"

# a second SIGTERM during a long grace: SIGKILL at once, nothing left
PORT=$(free_port); export PORT
rm -f "$T/probe-started"
env STANDIN_TAG=$tag STANDIN_MODE=ignore-term "$bin" run --logs "$T/logs" --grace 600 --set model-path=/m \
	--probe "touch $T/probe-started; sleep 60; true" "$data/agg" > "$T/out" 2>&1 &
pid=$!
if wait_for 30 test -e "$T/probe-started"; then
	kill -TERM $pid
	wait_for 30 grep -q 'ignoring SIGTERM' "$T/logs/aggregated.log"
	alive $pid && ok || ko "second signal: servelint ended before its grace"
	kill -TERM $pid
	wait_for 20 dead $pid && ok || { kill -KILL $pid; ko "second signal: the grace was not cut short"; }
	wait $pid; rc=$?
	[ $rc -eq 143 ] && ok || ko "second signal: exit $rc"
else
	ko "second signal: the run never came up"; kill -KILL $pid
fi
wait_for 30 gone && ok || ko "second signal: $(left) processes left"
# a timeout while the probe runs says so (not an empty "not ready:"); 10 s for
# the stand-in to come up first on a loaded machine under ASan (3 s was not)
PORT=$(free_port); export PORT
out=$(env STANDIN_TAG=$tag "$bin" run --logs "$T/logs" --grace 2 --timeout 10 --set model-path=/m --probe "sleep 60; true" "$data/agg" 2>&1); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q 'timed out after 10 s; everything was ready; the probe had not ended' && ok || ko "timeout in the probe: $rc $out"
wait_for 30 gone && ok || ko "timeout in the probe: $(left) processes left"
# a process that logs more than 64 MiB and dies: its last lines are still told
PORT=$(free_port); export PORT
out=$(env STANDIN_TAG=$tag STANDIN_MODE=flood-crash "$bin" run --logs "$T/logs" --grace 2 --set model-path=/m "$data/agg" 2>&1); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q '^fatal: the last line (stand-in)' && ok || ko "70 MB of log: $rc $(echo "$out" | cut -c1-200 | tail -5)"
wait_for 30 gone && ok || ko "70 MB of log: $(left) processes left"
rm -rf "$T/logs"
finish
