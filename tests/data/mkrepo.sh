# mkrepo.sh DIR: a catalogue history for diff REV REV and log
set -e
r=$1
src=$(pwd)/corpus
# fixed names and dates: the same commits (ids) every run
n=0
g() {
	n=$((n + 1))
	d=$(printf '2026-11-%02dT12:00:00+0100' "$n")
	GIT_AUTHOR_DATE="$d" GIT_COMMITTER_DATE="$d" \
		git -C "$r" -c user.name="Ada Tester" -c user.email=ada@example.com -c init.defaultBranch=main "$@"
}
mkdir -p "$r/cat"
cp -r $src/deepseek-v4.1-flash/b300-x8/vllm-tp2-dspark5 "$r/cat/vllm"
cp -r $src/deepseek-v4-pro/b300-x8/trtllm-disagg-1p-dep4-1d-dep4-mtp3 "$r/cat/trt"
cp -r $src/deepseek-v4.1-flash/h200-sxm-x8/vllm-tp4-nospec "$r/cat/gone"
echo "# notes" > "$r/README.md"
g init -q; g add -A; g commit -qm "one: three entries"
sed -i 's/^  --host/    --host/' "$r/cat/vllm/launch.sh"; echo "more" >> "$r/README.md"
g commit -qam "reformat only"
sed -i 's/--tensor-parallel-size 2/-tp 2/' "$r/cat/vllm/launch.sh"
g commit -qam "alias swap"
sed -i 's/--max-num-seqs 256/--max-num-seqs 128/' "$r/cat/vllm/launch.sh"
g commit -qam "real flag change"
sed -i 's/free_gpu_memory_fraction: 0.8/free_gpu_memory_fraction: 0.7/' "$r/cat/trt/gen_config.yaml"
g commit -qam "YAML change"
g mv cat/trt cat/trt-renamed; g commit -qm "rename"
g rm -rq cat/gone; g commit -qm "deletion"
cp -r $src/deepseek-v4.1-flash/h100-sxm-x8/vllm-tp8-nospec "$r/cat/new"; g add -A; g commit -qm "new entry"
