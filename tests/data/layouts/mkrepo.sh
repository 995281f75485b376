# mkrepo.sh DIR: a history of a folder of many scripts (tests/data/layouts/),
# for diff REV REV and log of one script of it
set -e
r=$1
src=$(pwd)/tests/data/layouts
n=0
g() {
	n=$((n + 1))
	d=$(printf '2026-10-%02dT12:00:00+0000' "$n")
	GIT_AUTHOR_DATE="$d" GIT_COMMITTER_DATE="$d" \
		git -C "$r" -c user.name="Ada Tester" -c user.email=ada@example.com -c init.defaultBranch=main "$@"
}
mkdir -p "$r/bench" "$r/pd"
cp $src/suite/*.sh "$r/bench/"
cp $src/pd/*.sh "$r/pd/"
g init -q; g add -A; g commit -qm "bench: three scripts; a prefill/decode pair"
sed -i 's/--max-num-seqs 256/--max-num-seqs 128/' "$r/bench/llama70b_fp8_h100_vllm.sh"
g commit -qam "h100: max-num-seqs 128"
sed -i '2a # Tuned for throughput at high concurrency.' "$r/bench/llama70b_fp8_h200_sglang.sh"
g commit -qam "h200: a comment"
sed -i 's/--block-size 128/--block-size 64/' "$r/pd/decode.sh"
g commit -qam "decode: block size 64, as prefill"
g mv bench/qwen3_bf16_mi300x_vllm.sh bench/qwen3_bf16_mi325x_vllm.sh; g commit -qm "mi300x -> mi325x"
sed -i 's/--max-num-seqs 128/--max-num-seqs 96/' "$r/bench/llama70b_fp8_h100_vllm.sh"
sed -i 's/--tp 4/--tp 8/' "$r/bench/llama70b_fp8_h200_sglang.sh"
g commit -qam "two scripts at once"
