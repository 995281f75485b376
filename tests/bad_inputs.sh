#!/bin/sh
# bad_inputs.sh SERVELINT: every bad input is a clear error with file:line:col,
# exit status 2, nothing on stdout, and no crash or hang.
set -u
bin=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0
pass=0

# check NAME EXPECTED-STDERR-REGEX PATH...
check() {
	name=$1 want=$2
	shift 2
	timeout 20 "$bin" show "$@" > "$dir/out" 2> "$dir/err"
	rc=$?
	if [ $rc -ne 2 ]; then
		echo "FAIL $name: exit $rc, want 2"; fails=$((fails + 1)); return
	fi
	if [ -s "$dir/out" ]; then
		echo "FAIL $name: wrote to stdout"; fails=$((fails + 1)); return
	fi
	if ! grep -Eq "$want" "$dir/err"; then
		echo "FAIL $name: stderr does not match /$want/:"; cat "$dir/err"; fails=$((fails + 1)); return
	fi
	pass=$((pass + 1))
}

printf 'vllm serve m \\\n  --max-num-seqs "64\n' > "$dir/quote.sh"
check unterminated-quote "^$dir/quote.sh:2:18: syntax error: unterminated double quote" "$dir/quote.sh"

printf "vllm serve m \\\\\n  --speculative-config '{\"method\": mtp}'\n" > "$dir/json.sh"
check invalid-json "^$dir/json.sh:2:36: invalid JSON: invalid token near 'mtp'" "$dir/json.sh"

printf "python3 -m dynamo.vllm --kv-transfer-config '{\"kv_role\":\"kv_both\",}'\n" > "$dir/json2.sh"
check invalid-json-trailing-comma "^$dir/json2.sh:1:67: invalid JSON: string or .}. expected" "$dir/json2.sh"

printf 'vllm serve m\000 --tp 2\n' > "$dir/binary.sh"
check binary "^$dir/binary.sh:1:13: binary file" "$dir/binary.sh"

printf 'vllm serve m\n# caf\351\n' > "$dir/latin1.sh"
check not-utf8 "^$dir/latin1.sh:2:6: not UTF-8 text" "$dir/latin1.sh"

: > "$dir/empty.sh"
check empty "^$dir/empty.sh:1:1: empty file" "$dir/empty.sh"

printf '\n  \n\n' > "$dir/blank.sh"
check blank "^$dir/blank.sh:1:1: empty file" "$dir/blank.sh"

# 10 MB: far past the per-file limit
yes 'vllm serve m --max-num-seqs 8' | head -c 10485760 > "$dir/big.sh"
check ten-megabytes "^$dir/big.sh: file is larger than the limit of 4194304 bytes" "$dir/big.sh"

# deeply nested substitutions
awk 'BEGIN { printf "vllm serve "; for (i = 0; i < 5000; i++) printf "\"$(echo "; printf "x"; for (i = 0; i < 5000; i++) printf ")\""; print "" }' > "$dir/deep.sh"
check deep-substitutions "^$dir/deep.sh:1:[0-9]+: nesting deeper than the limit of 64 levels" "$dir/deep.sh"

awk 'BEGIN { printf "vllm serve "; for (i = 0; i < 100000; i++) printf "${A:-"; printf "x"; for (i = 0; i < 100000; i++) printf "}"; print "" }' > "$dir/deep2.sh"
check deep-expansions "^$dir/deep2.sh:1:[0-9]+: nesting deeper than the limit" "$dir/deep2.sh"

check missing "^$dir/nope.sh: cannot open: No such file or directory" "$dir/nope.sh"

mkdir "$dir/noscript"
check folder-without-script "^$dir/noscript: entry folder has no launch script" "$dir/noscript"

# a good entry with a bad one: still nothing on stdout
check good-and-bad "^$dir/quote.sh:2:18:" corpus/kimi-k3/b300-x8/sglang-tp8-nospec "$dir/quote.sh"

# bad engine YAML, named by the command (each its own entry folder)
yaml_case() { # NAME CONTENT-PRINTF-FORMAT
	mkdir -p "$dir/$1"
	printf 'trtllm-serve m --config c.yaml\n' > "$dir/$1/launch.sh"
	printf "$2" > "$dir/$1/c.yaml"
}
yaml_case yaml-tabs 'kv_cache_config:\n\tdtype: fp8\n'
check yaml-tabs "^$dir/yaml-tabs/c.yaml:2:1: YAML: found character that cannot start any token" "$dir/yaml-tabs"
yaml_case yaml-flow 'cuda_graph_config:\n  batch_sizes: [1, 2, 4\nmax_batch_size: 8\n'
check yaml-unclosed-flow "^$dir/yaml-flow/c.yaml:3:[0-9]+: YAML: did not find expected ',' or ']'" "$dir/yaml-flow"
yaml_case yaml-dup 'max_batch_size: 8\nmax_num_tokens: 1024\nmax_batch_size: 16\n'
check yaml-duplicate-key "^$dir/yaml-dup/c.yaml:3:1: duplicate YAML key .max_batch_size." "$dir/yaml-dup"
yaml_case yaml-bomb 'a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\ng: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]\nh: [*g, *g, *g, *g, *g, *g, *g, *g, *g, *g]\n'
check yaml-alias-bomb "^$dir/yaml-bomb/c.yaml:[0-9]+:[0-9]+: YAML expands to more than 200000 nodes" "$dir/yaml-bomb"
mkdir -p "$dir/yaml-deep"
printf 'trtllm-serve m --config c.yaml\n' > "$dir/yaml-deep/launch.sh"
awk 'BEGIN { for (i = 0; i < 200; i++) printf "%*sk%d:\n", 2 * i, "", i; printf "%*sx: 1\n", 400, "" }' > "$dir/yaml-deep/c.yaml"
check yaml-200-levels "^$dir/yaml-deep/c.yaml:[0-9]+:[0-9]+: YAML nesting deeper than the limit of 64 levels" "$dir/yaml-deep"
yaml_case yaml-utf8 'max_batch_size: 8\nname: caf\351\n'
check yaml-invalid-utf8 "^$dir/yaml-utf8/c.yaml:2:10: not UTF-8 text" "$dir/yaml-utf8"
yaml_case yaml-list 'just a string\n'
check yaml-not-a-mapping "^$dir/yaml-list/c.yaml:1:1: c.yaml: expected a mapping of settings" "$dir/yaml-list"

# a folder whose name is not UTF-8: show's JSON cannot hold it (the text
# is checked at read; a path is not), and says so
bad=$(printf '%s/name\377' "$dir")
mkdir -p "$bad"
printf 'vllm serve m --max-num-seqs 8\n' > "$bad/launch.sh"
check json-path-not-utf8 ": cannot be written as JSON: a path or value in it is not UTF-8 text" --format json "$bad"

# usage errors: exit 3, as every command
timeout 5 "$bin" show --format xml corpus/kimi-k3/b300-x8/sglang-tp8-nospec > /dev/null 2>&1
[ $? -eq 3 ] && pass=$((pass + 1)) || { echo "FAIL unknown-format"; fails=$((fails + 1)); }
timeout 5 "$bin" frobnicate > /dev/null 2>&1
[ $? -eq 3 ] && pass=$((pass + 1)) || { echo "FAIL unknown-command"; fails=$((fails + 1)); }

echo "$pass passed, $fails failed"
[ $fails -eq 0 ]
