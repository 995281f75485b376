# The suite's shared library: every benchmark script sources it first. It
# sets the port unless the caller did, exports what every server needs,
# reads the hardware's settings beside it, and defines the helpers.
export PORT="${PORT:-8888}"
export HF_HUB_OFFLINE=1
source "$(dirname "${BASH_SOURCE[0]}")/common/env.sh"

check_env_vars() {
    local unset_names=()
    for v in "$@"; do
        if [ -z "${!v:-}" ]; then
            unset_names+=("$v")
        fi
    done
    if [ "${#unset_names[@]}" -gt 0 ]; then
        echo "not set: ${unset_names[*]}" >&2
        exit 1
    fi
}

start_server_default() {
    local extra=()
    if [ "${EAGER:-0}" = 1 ]; then
        extra=(--enforce-eager)
    fi
    vllm serve "$MODEL" --port "$PORT" --max-num-seqs 128 "${extra[@]}" $SERVE_ARGS &
}
