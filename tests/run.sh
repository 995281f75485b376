#!/bin/sh
# run.sh SERVELINT [--update]: `servelint run` against real stand-ins for
# the engines (tests/data/run/standin.py, a small HTTP server behind the
# names vllm, etcd and python3 -m dynamo.*, first on a temporary PATH).
# Checks the dry run (golden), start and stop order, timings within sane
# bounds, statistics and the hyperfine export, and every teardown path
# (done, a service that dies, a timeout, a probe that fails, SIGINT and
# SIGTERM to servelint, a process that ignores SIGTERM, a grandchild that
# leaves its group): after each, no process of the run may remain.
set -u
. "$(dirname "$0")/lib.sh"
gold=run
data=$root/tests/data/run
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
py=$(command -v python3)
[ -n "$py" ] || { echo "FAIL python3 is needed for the stand-ins"; exit 1; }
mkdir "$T/bin"
printf '#!/bin/sh\nexec %s %s vllm "$@"\n' "$py" "$data/standin.py" > "$T/bin/vllm"
printf '#!/bin/sh\nexec %s %s etcd "$@"\n' "$py" "$data/standin.py" > "$T/bin/etcd"
cat > "$T/bin/python3" <<EOF
#!/bin/sh
if [ "\$1" = -m ]; then
	case "\$2" in
	dynamo.frontend) shift 2; exec $py $data/standin.py frontend "\$@" ;;
	dynamo.*) p=\${2#*.}; shift 2; exec $py $data/standin.py dynamo-\$p "\$@" ;;
	esac
fi
exec $py "\$@"
EOF
chmod +x "$T/bin/"*
PATH=$T/bin:$PATH
# every process of a run (and no process of this test) carries the tag
# in its environment
tag="STANDIN_TAG_$$"
STANDIN_LOG=$T/order
STANDIN_REGISTRY=$T/registry
export PATH STANDIN_LOG STANDIN_REGISTRY
free_port() { "$py" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
PORT=$(free_port)
ETCD_PORT=$(free_port)
export PORT ETCD_PORT
# processes left over from the run (their environment holds the tag)
left() { grep -l "STANDIN_TAG=$tag" /proc/[0-9]*/environ 2>/dev/null | wc -l; }
none_left() { n=$(left); [ "$n" -eq 0 ] && ok || ko "$1: $n processes left"; }
sl() { env STANDIN_TAG=$tag "$bin" run --logs "$T/logs" --grace 2 "$@"; }
in_order() { [ "$(grep "^$1 " "$T/order" | cut -d' ' -f2 | tr '\n' ' ')" = "$2" ] && ok || ko "$1 order: $(grep "^$1 " "$T/order" | cut -d' ' -f2 | tr '\n' ' '), not $2"; }

# dry runs: read and judged; nothing starts. Ports in the goldens are the
# variables' (fixed here), and the paths the --set values.
fixed="env PORT=18000 ETCD_PORT=12379"
golden agg-dry.tty $fixed "$bin" run --dry-run --set model-path=/models/m tests/data/run/agg
golden disagg-dry.tty $fixed "$bin" run -n --set '<host-path>=/var/etcd' tests/data/run/disagg
golden disagg-dry.json $fixed "$bin" run -n --format json --set host-path=/var/etcd tests/data/run/disagg
golden docker-native-dry.tty $fixed "$bin" run -n --native --set host-path=/srv/models tests/data/run/docker
golden decode-only-dry.tty $fixed "$bin" run -n --set host-path=/e --service frontend --service decode#1 tests/data/run/disagg
[ ! -e "$T/order" ] && ok || ko "a dry run started something"

# bad input: unresolved placeholder, placeholder in a shell string, no docker
out=$("$bin" run -n tests/data/run/agg 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q 'launch.sh:4:1: aggregated argv\[2\]: placeholder <model-path> has no value (--set model-path=VALUE)' && ok || ko "unresolved placeholder: $rc $out"
out=$(env -u PORT "$bin" run -n --set model-path=/m tests/data/run/agg 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q '\$PORT is not set' && ok || ko "unset variable: $rc $out"
printf 'bash -c "vllm serve <model-path> --port 8000"\n' > "$T/shell.sh"
out=$("$bin" run -n --set model-path=/m "$T/shell.sh" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q 'inside a shell string' && ok || ko "placeholder in bash -c: $rc $out"
out=$(DOCKER_HOST=unix://$T/no.sock "$bin" run --set host-path=/m tests/data/run/docker 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q "no docker engine answers at unix://$T/no.sock" && ok || ko "no docker: $rc $out"
out=$("$bin" run -n corpus/pages/000_a3b24a2c279fc8de.txt 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q 'holds 20 entries; run one' && ok || ko "a whole page: $rc $out"
"$bin" run -n --service nosuch --set host-path=/e tests/data/run/disagg > /dev/null 2>&1
[ $? -eq 3 ] && ok || ko "--service nosuch"
"$bin" run -n --ready bogus --set model-path=/m tests/data/run/agg > /dev/null 2>&1
[ $? -eq 3 ] && ok || ko "--ready bogus"
"$bin" run --repeat 0 tests/data/run/agg > /dev/null 2>&1
[ $? -eq 3 ] && ok || ko "--repeat 0"

# a run: ready after the stand-in's delay (0.3 s), probe timed, all stopped
rm -f "$T/order"
out=$(STANDIN_DELAY=0.3 sl --set model-path=/m --probe "sleep 0.2" --format json tests/data/run/agg); rc=$?
[ $rc -eq 0 ] && ok || ko "agg run: exit $rc"
echo "$out" > "$T/agg.json"
"$py" - "$T/agg.json" <<'EOF' && ok || ko "agg run: timings"
import json, sys
d = json.load(open(sys.argv[1]))
c = d["cycles"][0]
p = c["processes"][0]
assert c["outcome"] == "ok", c
assert 0.3 <= p["ready"] < 5, p
assert 0.2 <= c["probe"] < 5, c
assert p["wall"] >= p["ready"], p
assert p["max_rss_kb"] > 1000 and p["user"] + p["system"] > 0, p
assert p["exit_code"] == 0 and not p["exited_early"], p
names = [r["command"] for r in d["results"]]
assert names == ["deployment ready", "aggregated ready", "probe"], names
EOF
grep -q '^standin vllm serve /m --served-model-name standin-agg' "$T/logs/aggregated.log" && ok || ko "agg log"
in_order start "vllm "
in_order term "vllm "
none_left "agg run"

# statistics: 1 warmup + 3 runs, hyperfine's export layout
out=$(STANDIN_DELAY=0.2 sl --set model-path=/m --warmup 1 --repeat 3 --probe true --export-json "$T/h.json" tests/data/run/agg); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q '^over 3 runs (warmups left out):' && ok || ko "repeat: exit $rc"
"$py" - "$T/h.json" <<'EOF' && ok || ko "hyperfine export"
import json, statistics, sys
d = json.load(open(sys.argv[1]))
for r in d["results"]:
    for k in ("command", "mean", "stddev", "median", "user", "system", "min", "max", "times", "exit_codes"):
        assert k in r, (k, r)
    t = r["times"]
    assert len(t) == 3 and r["exit_codes"] == [0, 0, 0], r
    assert abs(r["mean"] - statistics.mean(t)) < 1e-6 and abs(r["stddev"] - statistics.stdev(t)) < 1e-6, r
    assert abs(r["median"] - statistics.median(t)) < 1e-6 and r["min"] == min(t) and r["max"] == max(t), r
assert d["results"][1]["min"] >= 0.2, d["results"][1]
EOF
[ "$(ls "$T/logs" | grep -c '^aggregated\.[1-4]\.log$')" -eq 4 ] && ok || ko "a log per cycle"
none_left "repeat"

# a disaggregated deployment: etcd, frontend, then the workers; stopped
# in reverse: the workers, the frontend, etcd
rm -f "$T/order"
sl --set host-path="$T/etcd" tests/data/run/disagg > "$T/out" 2>&1; rc=$?
[ $rc -eq 0 ] && ok || ko "disagg run: exit $rc $(cat "$T/out")"
[ "$(grep '^start ' "$T/order" | head -2 | cut -d' ' -f2 | tr '\n' ' ')" = "etcd frontend " ] && ok || ko "disagg start order: $(cat "$T/order")"
[ "$(grep -c '^start dynamo-vllm' "$T/order")" -eq 2 ] && ok || ko "disagg workers started"
[ "$(grep '^term ' "$T/order" | tail -2 | cut -d' ' -f2 | tr '\n' ' ')" = "frontend etcd " ] && ok || ko "disagg stop order: $(cat "$T/order")"
# the workers are ready when the frontend lists the model: after their 0.3 s
awk '$1 == "prefill" && $2 == "ready" { r = $3 } END { exit !(r >= 0.3 && r < 10) }' "$T/out" && ok || ko "prefill ready time: $(grep 'prefill *ready' "$T/out")"
none_left "disagg"

# a service that crashes at start: exit 1, its status and log's last lines
out=$(STANDIN_MODE=crash sl --set model-path=/m tests/data/run/agg 2>&1); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q 'a process ended before the run was over: aggregated (exit status 3; log ' &&
	echo "$out" | grep -q 'RuntimeError: CUDA out of memory (stand-in)' && ok || ko "crash: $rc $out"
none_left "crash"
# the same with --format json: the document tells how the cycle ended
STANDIN_MODE=crash sl --set model-path=/m --format json tests/data/run/agg > "$T/crash.json" 2> /dev/null
"$py" - "$T/crash.json" <<'EOF' && ok || ko "crash: JSON"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["ok"] is False and d["results"] == [], d
c = d["cycles"][0]
assert c["outcome"] == "a process ended before the run was over", c
p = c["processes"][0]
assert p["exit_code"] == 3 and p["exited_early"] and p["ready"] is None, p
EOF
none_left "crash (json)"
# one that dies while the probe runs
out=$(STANDIN_MODE=die-after sl --set model-path=/m --probe "sleep 20" tests/data/run/agg 2>&1); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q 'ended before the run was over: aggregated (exit status 1' && ok || ko "die-after: $rc $out"
none_left "died during the probe"
# never ready: the timeout
start=$(date +%s)
out=$(STANDIN_MODE=never-ready sl --set model-path=/m --timeout 1.5 tests/data/run/agg 2>&1); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q 'timed out after 2 s; not ready: aggregated' && ok || ko "timeout: $rc $out"
[ $(( $(date +%s) - start )) -lt 10 ] && ok || ko "timeout took too long"
none_left "timeout"
# a probe that fails
out=$(sl --set model-path=/m --probe "echo probe says no; exit 4" tests/data/run/agg 2>&1); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q 'the probe failed: probe (exit status 4)' && echo "$out" | grep -q 'probe says no' && ok || ko "probe: $rc $out"
none_left "probe failed"
# a process that ignores SIGTERM: SIGKILL after the grace period (1 s)
start=$(date +%s%N)
STANDIN_MODE=ignore-term STANDIN_TAG=$tag "$bin" run --logs "$T/logs" --grace 1 --set model-path=/m tests/data/run/agg > /dev/null 2>&1; rc=$?
took=$(( ($(date +%s%N) - start) / 1000000 ))
[ $rc -eq 0 ] && [ $took -ge 1000 ] && ok || ko "ignore-term: exit $rc after $took ms"
grep -q 'ignoring SIGTERM' "$T/logs/aggregated.log" && ok || ko "ignore-term: SIGTERM was not sent first"
none_left "ignore-term"
# a grandchild in its own session (out of the process group)
STANDIN_MODE=orphan sl --set model-path=/m tests/data/run/agg > /dev/null 2>&1; rc=$?
[ $rc -eq 0 ] && ok || ko "orphan: exit $rc"
none_left "orphan"
# SIGINT and SIGTERM to servelint while it waits
for sig in INT TERM; do
	rm -f "$T/order"
	STANDIN_MODE=never-ready STANDIN_TAG=$tag "$bin" run --logs "$T/logs" --grace 2 --set model-path=/m tests/data/run/agg > "$T/sig.out" 2>&1 &
	pid=$!
	# wait for the stand-in itself (servelint carries the tag too, and a
	# signal before its handlers are in place would only test the shell:
	# a background job of a script even starts with SIGINT ignored)
	n=0
	while ! grep -q '^start ' "$T/order" 2>/dev/null && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
	[ $n -lt 100 ] && [ "$(left)" -gt 1 ] && ok || ko "SIG$sig: the run's processes were never seen (the leftover check would see nothing)"
	kill -$sig $pid
	# a watchdog, so that a servelint that does not stop fails the test
	# instead of hanging it
	n=0
	while kill -0 $pid 2>/dev/null && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done
	kill -0 $pid 2>/dev/null && { kill -KILL $pid; ko "SIG$sig: servelint still running 30 s later"; }
	wait $pid; rc=$?
	want=$([ $sig = INT ] && echo 130 || echo 143)
	[ $rc -eq "$want" ] && grep -q 'interrupted' "$T/sig.out" && ok || ko "SIG$sig: exit $rc $(cat "$T/sig.out")"
	none_left "SIG$sig"
done
# --native: the engine inside docker runs directly
out=$(DOCKER_HOST=unix://$T/no.sock sl --native --set host-path="$T" tests/data/run/docker 2>&1); rc=$?
[ $rc -eq 0 ] && grep -q "^standin vllm serve $T/Qwen3-0.6B --port $PORT --download-dir $T/cache" "$T/logs/aggregated.log" && ok || ko "native: $rc $out"
none_left "native"
# a here-document's file, in the working folder where the engine starts
out=$(sl --set model-path=/m tests/data/run/heredoc 2>&1); rc=$?
[ $rc -eq 0 ] && grep -q "^cwd $T/logs/work$" "$T/logs/aggregated.log" && grep -q "^config max-num-seqs: 8$" "$T/logs/aggregated.log" && ok || ko "here-document file: $rc $out $(cat "$T/logs/aggregated.log")"
golden heredoc-dry.tty $fixed "$bin" run -n --set model-path=/m tests/data/run/heredoc
none_left "here-document"
# docker run -d: refused as written; --native runs the entrypoint's command
out=$("$bin" run -n --set host-path=/m tests/data/run/docker-detached 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q 'launch.sh:4:1: aggregated: `docker run -d` leaves the container to docker' && ok || ko "docker -d: $rc $out"
golden docker-detached-native-dry.tty $fixed "$bin" run -n --native --set host-path=/srv tests/data/run/docker-detached
out=$(sl --native --set host-path="$T" tests/data/run/docker-detached 2>&1); rc=$?
[ $rc -eq 0 ] && grep -q "^standin vllm serve /models/Qwen3-0.6B --port $PORT --max-num-seqs 16" "$T/logs/aggregated.log" && ok || ko "native entrypoint: $rc $out"
none_left "native entrypoint"
# a dry run always shows its plan, the holes marked, then fails (exit 2)
out=$("$bin" run -n tests/data/run/agg 2>/dev/null); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q '^   argv   vllm serve .<model-path>.' &&
	echo "$out" | grep -q '^unresolved: .*placeholder <model-path> has no value' && ok || ko "dry run with a hole: $rc $out"
out=$("$bin" run -n --format json tests/data/run/agg 2>/dev/null); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q '"unresolved": \[' && echo "$out" | grep -q '"argv": \[' && ok || ko "dry run json with a hole: $rc"
out=$("$bin" run -n --set host-path=/m tests/data/run/docker-detached 2>/dev/null); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q '^   argv   docker run' && echo "$out" | grep -q '^unresolved: .*docker run -d' && ok || ko "dry run of docker -d: $rc $out"
# --native: the image's own entrypoint, and --gpus as CUDA_VISIBLE_DEVICES
cat > "$T/img.sh" <<'SH'
docker run --gpus '"device=2,3"' -e FOO=1 -v /data/hf:/hfcache vllm/vllm-openai:v0.31.0 --model org/m --tensor-parallel-size 2 --download-dir /hfcache/x
SH
out=$("$bin" run -n --native "$T/img.sh" 2>&1); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q '^   argv   vllm serve --model org/m --tensor-parallel-size 2 --download-dir /data/hf/x$' &&
	echo "$out" | grep -q '^   env    CUDA_VISIBLE_DEVICES=2,3$' && ok || ko "native image entrypoint and --gpus: $rc $out"
printf '%s\n' 'docker run --gpus device=1,3 -e CUDA_VISIBLE_DEVICES=1 vllm/vllm-openai:v0.31.0 --model org/m' > "$T/img2.sh"
"$bin" run -n --native "$T/img2.sh" 2>&1 | grep -q 'CUDA_VISIBLE_DEVICES=3$' && ok || ko "native: the container's CUDA_VISIBLE_DEVICES mapped through --gpus"
# the model as the first word after the image: the entrypoint's positional
printf '%s\n' 'docker run --gpus all -v /data/hf:/hfcache vllm/vllm-openai-rocm:v0.31.0 org/m --tensor-parallel-size 2 --download-dir /hfcache' > "$T/img6.sh"
"$bin" run -n --native "$T/img6.sh" 2>&1 | grep -q '^   argv   vllm serve org/m --tensor-parallel-size 2 --download-dir /data/hf$' && ok || ko "native: the model after the image"
printf '%s\n' "docker run --gpus '\"device=<4 GPUs>\"' vllm/vllm-openai:v0.31.0 --model org/m" > "$T/img3.sh"
"$bin" run -n --native --set '4 GPUs=0,1,2,3' "$T/img3.sh" 2>&1 | grep -q 'CUDA_VISIBLE_DEVICES=0,1,2,3$' && ok || ko "native: --gpus placeholder"
printf '%s\n' 'docker run --gpus all lmsysorg/sglang:v0.5 --model-path org/m' > "$T/img4.sh"
out=$("$bin" run -n --native "$T/img4.sh" 2>&1); rc=$?
[ $rc -eq 2 ] && "$bin" show "$T/img4.sh" 2>&1 | grep -q "lmsysorg/sglang:v0.5. runs the command it is given" && ok || ko "native sglang image: $rc $out"
# the entrypoints are docker.yaml's (images:): vllm/vllm-tpu's is assumed,
# and said so; an image only guessed to be vLLM from its name, or not
# known at all, has none to start natively
printf '%s\n' 'docker run --privileged vllm/vllm-tpu:nightly --model org/m --port 8000' > "$T/img7.sh"
out=$("$bin" run -n --native "$T/img7.sh" 2>&1); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q '^   argv   vllm serve --model org/m --port 8000$' &&
	echo "$out" | grep -q '^note: aggregated: the entrypoint of image `vllm/vllm-tpu:nightly` is assumed (as vLLM' && ok || ko "native TPU image: $rc $out"
for im in myorg/vllm-custom:1 acme/server:1; do
	printf 'docker run %s --model org/m --port 8000\n' "$im" > "$T/img8.sh"
	out=$("$bin" run -n --native "$T/img8.sh" 2>&1); rc=$?
	[ $rc -eq 2 ] && echo "$out" | grep -q "img8.sh:1:1: aggregated: the image's entrypoint is not known (write its command after the image); --native cannot start it" &&
		ok || ko "native unknown image $im: $rc $out"
done
printf '%s\n' 'docker run --device /dev/kfd --device /dev/dri/renderD128 rocm/vllm:latest vllm serve org/m' > "$T/img5.sh"
"$bin" run -n --native "$T/img5.sh" 2>&1 | grep -q '^note: .*--device /dev/dri/renderD128 gives the container one GPU' && ok || ko "native ROCm --device: no note"
finish
