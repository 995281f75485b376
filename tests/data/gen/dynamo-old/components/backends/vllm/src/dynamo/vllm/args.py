import argparse

DEFAULT_ENDPOINT = "dyn://dynamo.backend.generate"

DYNAMO_ARGS = {
    "migration-limit": {
        "flags": ["--migration-limit"],
        "type": int,
        "default": 0,
        "help": "How often a request may move to another worker.",
    },
    "use-vllm-tokenizer": {
        "flags": ["--use-vllm-tokenizer"],
        "action": "store_true",
        "default": False,
        "help": "Use the engine's tokenizer.",
    },
}


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--endpoint", type=str, default=DEFAULT_ENDPOINT)
    parser.add_argument("--is-prefill-worker", action="store_true")
    return parser.parse_args()
