# The suite's shared library: every benchmark script sources it first. It
# sets the port unless the caller did, exports what every server needs,
# reads the hardware's settings beside it, and defines the helpers.
export PORT="${PORT:-8888}"
export HF_HUB_OFFLINE=1
source "$(dirname "${BASH_SOURCE[0]}")/common/env.sh"

check_env_vars() {
    for v in "$@"; do
        [ -n "${!v:-}" ] || { echo "$v is not set" >&2; exit 1; }
    done
}

start_server_default() {
    vllm serve "$MODEL" --port "$PORT" --max-num-seqs 128 &
}
