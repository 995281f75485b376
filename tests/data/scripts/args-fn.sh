#!/bin/bash
# One launcher called per role, reading its options in a while/case/shift
# loop: each call gives its own MODE, PORT and TP; `--` ends the options.
launch() {
    local MODE=agg PORT=8000 TP=1 EXTRA=()
    while [ $# -gt 0 ]; do
        case "$1" in
            --mode) MODE=$2; shift 2 ;;
            --port=*) PORT="${1#*=}"; shift ;;
            --tp) TP=$2; shift 2 ;;
            --) shift; break ;;
            *) EXTRA+=("$1"); shift ;;
        esac
    done
    python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --disaggregation-mode "$MODE" \
        --port "$PORT" --tp "$TP" "${EXTRA[@]}" "$@" &
}
launch --mode prefill --port=30000 --tp 2 --enable-metrics
launch --mode decode --port=30001 --tp 4 -- --mem-fraction-static 0.8
wait
