from typing import Literal

from pydantic.dataclasses import dataclass

CacheDType = Literal["auto", "bfloat16", "fp8", "nvfp4"]


@dataclass
class CacheConfig:
    block_size: int | None = None
    """Size of a KV cache block in tokens."""
    gpu_memory_utilization: float = 0.9
    cache_dtype: CacheDType = "auto"
    enable_prefix_caching: bool | None = None
