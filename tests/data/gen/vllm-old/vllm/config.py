from dataclasses import dataclass, field
from typing import Literal, Optional, Union

BlockSize = Literal[8, 16, 32]
CacheDType = Literal["auto", "fp8", "fp8_e5m2"]
TokenizerMode = Literal["auto", "slow"]


@dataclass
class ModelConfig:
    model: str = "facebook/opt-125m"
    """Name or path of the model."""
    tokenizer_mode: TokenizerMode = "auto"
    max_model_len: Optional[int] = None
    enforce_eager: bool = False
    max_seq_len_to_capture: int = 8192
    served_model_name: Optional[Union[str, list[str]]] = None


@dataclass
class CacheConfig:
    block_size: Optional[BlockSize] = None
    gpu_memory_utilization: float = 0.9
    cache_dtype: CacheDType = "auto"


@dataclass
class ParallelConfig:
    tensor_parallel_size: int = 1
    pipeline_parallel_size: int = 1


# a plain dataclass: its Literal is not checked when built, so no choices
DraftMethod = Literal["alpha", "beta"]


@dataclass
class SpeculativeConfig:
    method: Optional[DraftMethod] = None
    num_speculative_tokens: Optional[int] = None
