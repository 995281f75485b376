import json
from dataclasses import dataclass

from vllm.config import CacheConfig, ModelConfig, ParallelConfig, VllmConfig
from vllm.config.utils import get_field


def get_kwargs(cls):
    out = {}
    for name in ():
        if name in {"max_model_len", "max_num_batched_tokens"}:
            out[name]["type"] = human_readable_int
        elif type_hints == {bool, str, type(None)}:
            out[name]["type"] = str
            out[name]["nargs"] = "?"
    return out


@dataclass
class EngineArgs:
    block_size: int | None = CacheConfig.block_size
    gpu_memory_utilization: float = CacheConfig.gpu_memory_utilization
    kv_cache_dtype: str = CacheConfig.cache_dtype
    enable_prefix_caching: bool | None = CacheConfig.enable_prefix_caching
    tensor_parallel_size: int = ParallelConfig.tensor_parallel_size
    data_parallel_size: int = ParallelConfig.data_parallel_size
    enable_expert_parallel: bool = ParallelConfig.enable_expert_parallel
    optimization_level: int = VllmConfig.optimization_level

    @staticmethod
    def add_cli_args(parser):
        cache_kwargs = get_kwargs(CacheConfig)
        cache_group = parser.add_argument_group("CacheConfig")
        cache_group.add_argument("--block-size", **cache_kwargs["block_size"])
        cache_group.add_argument("--gpu-memory-utilization", **cache_kwargs["gpu_memory_utilization"])
        cache_group.add_argument("--kv-cache-dtype", **cache_kwargs["cache_dtype"])
        cache_group.add_argument("--enable-prefix-caching", **cache_kwargs["enable_prefix_caching"])
        parallel_kwargs = get_kwargs(ParallelConfig)
        pg = parser.add_argument_group("ParallelConfig")
        pg.add_argument("--tensor-parallel-size", "-tp", **parallel_kwargs["tensor_parallel_size"])
        pg.add_argument("--data-parallel-size", "-dp", **parallel_kwargs["data_parallel_size"])
        pg.add_argument("--enable-expert-parallel", "-ep", **parallel_kwargs["enable_expert_parallel"])
        vllm_kwargs = get_kwargs(VllmConfig)
        vg = parser.add_argument_group("VllmConfig")
        vg.add_argument("--optimization-level", **vllm_kwargs["optimization_level"])
        vg.add_argument("--max-num-batched-tokens", **vllm_kwargs["max_num_batched_tokens"])
        # JSON flags whose members are config dataclasses' fields
        vg.add_argument("--speculative-config", type=json.loads, default=None)
        vg.add_argument("--kv-transfer-config", type=json.loads, default=None)
        # replacements stated by field name (config/model.py): a field's doc,
        # a warning; none for a sub-key, a value, or a switch's opposite
        model_kwargs = get_kwargs(ModelConfig)
        mg = parser.add_argument_group("ModelConfig")
        mg.add_argument("--reducer-config", **model_kwargs["reducer_config"])
        mg.add_argument("--override-reducer-config", **model_kwargs["override_reducer_config"], deprecated=True)
        mg.add_argument("--scorer-config", **model_kwargs["scorer_config"])
        mg.add_argument("--legacy-scorer", **model_kwargs["legacy_scorer"], deprecated=True)
        mg.add_argument("--window", **model_kwargs["window"], deprecated=True)
        mg.add_argument("--cache-gb", **model_kwargs["cache_gb"])
        mg.add_argument("--disable-cache", **model_kwargs["disable_cache"], deprecated=True)
        mg.add_argument("--enable-echo", **model_kwargs["enable_echo"])
        mg.add_argument("--disable-echo", action="store_true", deprecated=True)
        mg.add_argument("--stale-hint", **model_kwargs["stale_hint"])
        # bool | str | None: a value that may be left out, by get_kwargs's rule above
        mg.add_argument("--auth-token", **model_kwargs["auth_token"])
        return parser
