#!/bin/sh
# k8s.sh SERVELINT [--update]: Kubernetes and Dynamo manifests as entries
# (tests/data/k8s/): show (tty and json) read and judged, the same graph as
# a manifest and as a shell script diffed, check without false findings,
# and bad manifests refused with their place.
set -u
. "$(dirname "$0")/lib.sh"
gold=k8s
d=tests/data/k8s
T0=$(mktemp)
golden deployment.tty "$bin" show --color never $d/vllm-deployment
golden graph.tty "$bin" show --color never $d/dynamo-disagg/graph.yaml
golden graph.json "$bin" show --format json $d/dynamo-disagg
# v1beta1: spec.components[] with podTemplate, multinode, a ConfigMap engine
# config, bash -lc, a frontend sidecar and sidecars/planner told as notes
golden v1beta1.tty "$bin" show --color never $d/dynamo-v1beta1
golden v1beta1.json "$bin" show --format json $d/dynamo-v1beta1
golden graph-vs-script.tty "$bin" diff --color never $d/dynamo-disagg $d/dynamo-disagg-sh
# check: the manifests are clean; the script's TP4 on two GPUs is found
"$bin" check --color never $d/vllm-deployment $d/dynamo-disagg $d/dynamo-v1beta1 > /dev/null
[ $? -eq 0 ] && ok || ko "check finds something in the manifests"
golden script-check.gcc "$bin" check --format gcc $d/dynamo-disagg-sh
# a manifest is found inside a folder tree by check
n=$("$bin" check --format json $d | grep -c '"SL3001"')
[ "$n" -ge 1 ] && ok || ko "check $d did not reach the script entry"
# run's plan of a manifest: a process per replica; a secret's value only
# from --set or the environment, and never printed
"$bin" run -n $d/dynamo-disagg/graph.yaml > "$T0" 2>&1
[ $? -eq 0 ] && grep -q '^4\. decode#2  (decode, stage workers)' "$T0" && ok || ko "run -n graph: $(cat "$T0")"
env -u HF_TOKEN "$bin" run -n --service aggregated#1 $d/vllm-deployment > "$T0" 2>&1
[ $? -eq 2 ] && grep -q 'env HF_TOKEN: its value (`$(valueFrom)`) is known only where it runs; give it with --set HF_TOKEN=VALUE' "$T0" && ok ||
	ko "run -n valueFrom: $(cat "$T0")"
"$bin" run -n --set HF_TOKEN=hf_s3cret --service aggregated#1 $d/vllm-deployment > "$T0" 2>&1
[ $? -eq 0 ] && grep -q '^   env    HF_TOKEN=<redacted>$' "$T0" && ! grep -q s3cret "$T0" && ok || ko "run -n secret: $(cat "$T0")"
"$bin" run -n --set HF_TOKEN=x $d/vllm-deployment > "$T0" 2>&1
[ $? -eq 2 ] && grep -q 'aggregated and aggregated#2 both serve on port 8000' "$T0" && ok || ko "two replicas, one host: $(cat "$T0")"
# manifests that deploy nothing say so at their place, exit 2, for show and check
out=$("$bin" show $d/not-a-deployment/storage.yaml 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q "storage.yaml:2:1: no service: .*a PersistentVolumeClaim is not a workload" && ok || ko "pvc: $rc $out"
out=$("$bin" check --format gcc $d/not-a-deployment/storage.yaml 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q "storage.yaml:2:1: error: .*\[SL0001\]" && ok || ko "check pvc: $rc $out"
out=$("$bin" show $d/not-a-deployment/request.yaml 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q "request.yaml:2:1: no service: .*DynamoGraphDeploymentRequest asks Dynamo's profiler for a deployment of Qwen/Qwen3-32B" && ok || ko "dgdr: $rc $out"
T=$(mktemp -d)
trap 'rm -rf "$T" "$T0"' EXIT
# a kustomize Component and its patch: the folder is the Component's entry
# (it names the patch), and the patch alone is a patch, never a graph
out=$("$bin" show $d/kustomize 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q "kustomization.yaml:2:1: no service: .*a kustomize Component lists patches" && ok || ko "kustomization: $rc $out"
mkdir "$T/patch" && cp $d/kustomize/patch-dgd.yaml "$T/patch/"
out=$("$bin" show "$T/patch/patch-dgd.yaml" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q "patch-dgd.yaml:3:1: no service: .*DynamoGraphDeployment workers gives no service a type or a command: a patch" && ok || ko "patch: $rc $out"
# bad manifests: a YAML error, with its place; no crash
printf 'apiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n        - name: x\n          command: [vllm, serve\n' > "$T/bad.yaml"
out=$("$bin" show "$T/bad.yaml" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q "bad.yaml:[0-9]*:[0-9]*: " && ok || ko "unterminated flow sequence: $rc $out"
printf 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a}\nspec:\n  template:\n    spec:\n      containers:\n        - name: vllm\n          image: vllm/vllm-openai:v0.11.0\n          args: [--model, m]\n' > "$T/args.yaml"
out=$("$bin" show --color never "$T/args.yaml" 2>&1); rc=$?
# no service: said so at the place reading stopped, exit 2 (never an empty model)
[ $rc -eq 2 ] && echo "$out" | grep -q "args.yaml:10:17: no service: .*container vllm gives args without a command" && ok || ko "args only: $rc $out"
printf 'apiVersion: apps/v1\nkind: Deployment\nspec: {template: {spec: {containers: [{name: a, command: [vllm, serve, m, "--max-num-seqs", "$(N)"], env: [{name: N, valueFrom: {fieldRef: {fieldPath: x}}}]}]}}}\n' > "$T/sym.yaml"
out=$("$bin" show --format json "$T/sym.yaml" 2>&1); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q '"symbolic": true' && ok || ko "\$(N) from valueFrom stays symbolic: $rc"
finish
