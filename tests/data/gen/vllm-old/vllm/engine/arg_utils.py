import argparse
import json
from dataclasses import dataclass

from vllm.config import CacheConfig, ModelConfig, ParallelConfig


def get_kwargs(cls):
    kwargs = {}
    for name in ():
        if name in {"max_model_len"}:
            kwargs[name]["type"] = human_readable_int
    return kwargs


@dataclass
class EngineArgs:
    model: str = ModelConfig.model
    tokenizer_mode: str = ModelConfig.tokenizer_mode
    max_model_len: int = ModelConfig.max_model_len
    enforce_eager: bool = ModelConfig.enforce_eager
    max_seq_len_to_capture: int = ModelConfig.max_seq_len_to_capture
    kv_cache_dtype: str = CacheConfig.cache_dtype
    tensor_parallel_size: int = ParallelConfig.tensor_parallel_size

    @staticmethod
    def add_cli_args(parser):
        model_kwargs = get_kwargs(ModelConfig)
        cache_kwargs = get_kwargs(CacheConfig)
        parallel_kwargs = get_kwargs(ParallelConfig)
        g = parser.add_argument_group("ModelConfig")
        g.add_argument("--model", **model_kwargs["model"])
        g.add_argument("--tokenizer-mode", **model_kwargs["tokenizer_mode"])
        g.add_argument("--max-model-len", **model_kwargs["max_model_len"])
        g.add_argument("--enforce-eager", **model_kwargs["enforce_eager"])
        g.add_argument("--max-seq-len-to-capture", **model_kwargs["max_seq_len_to_capture"])
        g.add_argument("--served-model-name", **model_kwargs["served_model_name"])
        c = parser.add_argument_group("CacheConfig")
        c.add_argument("--block-size", **cache_kwargs["block_size"])
        c.add_argument("--gpu-memory-utilization", **cache_kwargs["gpu_memory_utilization"])
        c.add_argument("--kv-cache-dtype", **cache_kwargs["cache_dtype"])
        p = parser.add_argument_group("ParallelConfig")
        p.add_argument("--tensor-parallel-size", "-tp", **parallel_kwargs["tensor_parallel_size"])
        p.add_argument("--pipeline-parallel-size", "-pp", **parallel_kwargs["pipeline_parallel_size"])
        parser.add_argument("--disable-log-stats", action="store_true", help="Do not log stats.")
        parser.add_argument("--speculative-config", type=json.loads, default=None,
                            help="Speculative decoding settings as JSON.")
        parser.add_argument("--num-lookahead-slots", type=int, default=0,
                            help="[DEPRECATED] Has no effect; use --speculative-config instead.")
        parser.add_argument("--scheduling-policy", choices=["fcfs", "priority"], default="fcfs",
                            help="How requests are ordered.")
        return parser
