#!/bin/sh
# plan.sh SERVELINT [--update]: the memory and shape plan
# (docs/memory-plan.md) as show prints it, against output read and judged
# (tests/golden/plan/); --model-config, a catalogue's models/ folder and
# --system, which take the place of the facts servelint ships; and the
# plan's rules firing from them.
set -u
. "$(dirname "$0")/lib.sh"
gold=plan
d=tests/data/plan
e=corpus/gpt-oss-120b/b200-sxm-x8/trtllm-tp1-eagle3-3
plan_of() { "$bin" show --color never "$@" | sed -n '/^plan/,/^$/p'; }
# the corpus entry whose model and system are known, and its engine files
golden gpt-oss-trtllm.tty plan_of $e
# an MLA MoE of the shipped facts (grammars/models/kimi-k2.yaml): FP8 weights
# at TP8 leave an H200 no KV pool, as the recipe's 16-GPU minimum for 128k
# tokens says (vllm-project/recipes moonshotai/Kimi-K2.md)
golden kimi-k2-h200.tty plan_of --system H200 $d/kimi/tp8.sh
# SL4007 and show's plan tell one story: the rule's bound counts no margin
# (at most 7.1 GiB), the plan's estimate an 8% one (-4.1 GiB), and each
# names the other's figure
"$bin" check --no-config --format gcc --system H200 $d/kimi/tp8.sh |
	grep -q 'at most 6.6 GiB on NVIDIA H200 SXM with no margin for activations: 100799 tokens (the plan of `show`, with its 11.2 GiB margin: -4.6 GiB) \[SL4007\]' &&
	ok || ko "SL4007 names show's figure"
# SL3006 holds one process to one node only where it is one: not a Ray
# cluster the comment starts, nor data-parallel ranks spread over nodes
# (--data-parallel-size-local, --headless) or one rank a process
# (--data-parallel-rank); TP8 x PP2 or DP16 alone in one process fires.
# A vLLM header stating more GPUs than a node has (16, the form of
# vllm-project/recipes Ernie/Ernie4.5.md, whose prose starts a Ray cluster)
# spans nodes too, unless the entry runs a vLLM after 0.11.0, which refuses
# such a world without --distributed-executor-backend ray
golden kimi-nodes.gcc sh -c 'for f in "$2"/ray-tp8-pp2.sh "$2"/one-node-tp8-pp2.sh "$2"/dp16-two-nodes.sh "$2"/dp16-rank.sh "$2"/dp16-one-node.sh "$2"/gpus-16-tp16.sh "$2"/gpus-16-tp16-new-vllm.sh; do "$1" check --no-config --format gcc --system H200 "$f" | grep "\[SL3006\]"; done' _ "$bin" $d/kimi
# --model-config: a config.json of the user's, read with its own numbers
# (4 layers: 126,362,624 parameters counted from the shapes)
out=$("$bin" show --format json --system H100 --model-config $d/tiny-config.json $d/agg.sh)
echo "$out" | grep -q '"parameters": 126362624' && ok || ko "--model-config parameters"
echo "$out" | grep -q '"kv_bytes_per_token": 2048' && ok || ko "--model-config KV bytes (2 x 4 x 1 x 128 x 2)"
echo "$out" | grep -q '"from": "--system"' && ok || ko "--system named"
# --model-config that cannot be read: exit 2, and nothing on stdout
o=$("$bin" show --model-config $d/no-such.json $d/agg.sh 2> /dev/null)
[ $? -eq 2 ] && [ -z "$o" ] && ok || ko "unreadable --model-config"
"$bin" check --model-config $d/README.md $d/agg.sh > /dev/null 2>&1
[ $? -eq 2 ] && ok || ko "--model-config not JSON"
# --system that names nothing known: a note, no figures
"$bin" show --system 'TPU v5e' --model-config $d/tiny-config.json $d/agg.sh | grep -q 'names no accelerator' &&
	ok || ko "unknown --system"
# the catalogue's models/ folder, by the last component of the weights;
# its system from the folder name
out=$("$bin" check --no-config --format gcc $d/cat)
echo "$out" | grep -q 'launch.sh:3:24: error: .*TP 8 does not divide the 12 attention heads of Tiny-1B (tests/data/plan/cat/models/Tiny-1B/config.json) \[SL3004\]' &&
	ok || ko "catalogue models/ folder: SL3004"
echo "$out" | grep -q 'launch.sh:3:49: warning: .*16384 tokens, Tiny-1B has 8192 positions.*\[SL4008\]' &&
	ok || ko "catalogue models/ folder: SL4008"
"$bin" show $d/cat/h100-sxm-x8/tiny-tp8 | grep -q 'from folder name' && ok || ko "system from the folder name"
# models/ in the entry folder itself (its listing, not a second look at
# the disk, says so), and a .git there: the repository's top, where the
# walk up stops before the catalogue's models/
c=$(mktemp -d)
mkdir -p "$c/cat/e/models" "$c/top/e/.git" "$c/top/models"
cp $d/cat/h100-sxm-x8/tiny-tp8/launch.sh "$c/cat/e/"
cp -r $d/cat/models/Tiny-1B "$c/cat/e/models/"
cp $d/cat/h100-sxm-x8/tiny-tp8/launch.sh "$c/top/e/"
cp -r $d/cat/models/Tiny-1B "$c/top/models/"
"$bin" check --no-config --format gcc --system H100 "$c/cat/e" | grep -q 'heads of Tiny-1B (.*/cat/e/models/Tiny-1B/config.json) \[SL3004\]' &&
	ok || ko "models/ in the entry folder"
"$bin" check --no-config --format gcc --system H100 "$c/top/e" | grep -q 'SL3004' &&
	ko "the walk went past the entry folder's .git" || ok
rm -rf "$c/top/e/.git"
"$bin" check --no-config --format gcc --system H100 "$c/top/e" | grep -q 'heads of Tiny-1B (.*/top/models/Tiny-1B/config.json) \[SL3004\]' &&
	ok || ko "models/ above the entry folder"
rm -rf "$c"
# SL4008 holds each engine to the context length it derives from the
# rope_scaling: a yarn factor 4 over 4,096 original positions (8,192
# max_position_embeddings) is 16,384 for vLLM, 8,192 for SGLang and
# TensorRT-LLM; a linear factor 2 over 8,192 is 16,384 for all three
t=$(mktemp -d)
l4008() { # CONFIG COMMAND: the SL4008 finding's "N positions", or nothing
	echo "$2" > "$t/l.sh"
	"$bin" check --no-config --format gcc --system H100 --model-config "$d/$1" "$t/l.sh" |
		sed -n 's/.* has \([0-9]*\) positions.*\[SL4008\]$/\1/p'
}
[ -z "$(l4008 tiny-yarn-config.json 'vllm serve org/tiny --max-model-len 16384')" ] && ok || ko "SL4008 vLLM yarn: 16384 allowed"
[ "$(l4008 tiny-yarn-config.json 'vllm serve org/tiny --max-model-len 16385')" = 16384 ] && ok || ko "SL4008 vLLM yarn: 16385 beyond 16384"
[ "$(l4008 tiny-yarn-config.json 'python3 -m sglang.launch_server --model-path org/tiny --context-length 16384')" = 8192 ] &&
	ok || ko "SL4008 SGLang yarn: 8192"
[ "$(l4008 tiny-yarn-config.json 'trtllm-serve org/tiny --max_seq_len 16384')" = 8192 ] && ok || ko "SL4008 TensorRT-LLM yarn: 8192"
[ -z "$(l4008 tiny-yarn-config.json 'TLLM_ALLOW_LONG_MAX_MODEL_LEN=1 trtllm-serve org/tiny --max_seq_len 16384')" ] &&
	ok || ko "SL4008 TensorRT-LLM's override"
[ "$(l4008 tiny-linear-config.json 'vllm serve org/tiny --max-model-len 16385')" = 16384 ] && ok || ko "SL4008 vLLM linear: 16384"
for c in 'python3 -m sglang.launch_server --model-path org/tiny --context-length 16384' 'trtllm-serve org/tiny --max_seq_len 16384'; do
	[ -z "$(l4008 tiny-linear-config.json "$c")" ] && ok || ko "SL4008 linear factor 2 allows 16384: $c"
done
# the shipped Kimi K2 facts: the July release's yarn factor 32 over 4,096
# gives vLLM 131,072 positions; the 0905 update (factor 64) is a model of
# its own whose max_position_embeddings was not read: not held
printf 'vllm serve moonshotai/Kimi-K2-Instruct --tensor-parallel-size 16 --max-model-len 131073\n' > "$t/k2.sh"
"$bin" check --no-config --format gcc --system H200 "$t/k2.sh" |
	grep -q ' 131073 tokens, kimi-k2 has 131072 positions (vLLM.s: the rope factor times original_max_position_embeddings, .*\[SL4008\]$' &&
	ok || ko "SL4008 Kimi-K2-Instruct: 131072 positions"
printf 'vllm serve moonshotai/Kimi-K2-Instruct-0905 --tensor-parallel-size 16 --max-model-len 200000\n' > "$t/k2b.sh"
"$bin" show --system H200 "$t/k2b.sh" | grep -q 'model *kimi-k2-0905, ' && ok || ko "Kimi-K2-Instruct-0905 has its facts"
! "$bin" check --no-config --format gcc --system H200 "$t/k2b.sh" | grep -q '\[SL4008\]' && ok || ko "SL4008 0905: positions not known"
rm -rf "$t"
# --system wins over the System claim: the corpus entry on an L40S has no
# room for its weights, on a B200 it has
"$bin" check --no-config --format gcc --system L40S $e | grep -q '\[SL4006\]' && ok || ko "--system L40S: SL4006"
"$bin" check --no-config --format gcc --system B300 $e | grep -q 'SL4006\|SL1006\|SL4007' && ko "--system B300 fires" || ok
# SL5005: vLLM MTP on a model of 3 MTP modules (our made-up config): 2
# draft tokens are within them, 4 are refused at start (not a multiple),
# 6 run the modules twice a step
golden mtp-layers.gcc sh -c 'for n in 2 4 6; do "$1" check --no-config --format gcc --model-config "$2"/mtp3-config.json "$2"/mtp/tokens-$n.sh; done; true' _ "$bin" $d
# an entry whose model servelint does not know: a note, none of the plan's rules
"$bin" show corpus/kimi-k3/b300-x8/sglang-tp8-nospec | grep -q 'Kimi-K3 is not one of grammars/models/' && ok || ko "unknown model note"
finish
