from enum import Enum
from typing import Literal, Optional, Union

from pydantic import BaseModel, Field, PrivateAttr


class StrictBaseModel(BaseModel):
    pass


class CacheTransceiverBackend(str, Enum):
    DEFAULT = "DEFAULT"
    UCX = "UCX"
    NIXL = "NIXL"


class KvCacheConfig(StrictBaseModel):
    free_gpu_memory_fraction: Optional[float] = Field(default=0.9, description="Share of free memory.")
    tokens_per_block: int = Field(default=32)
    dtype: str = "auto"
    enable_block_reuse: bool = True


class CacheTransceiverConfig(StrictBaseModel):
    backend: Optional[CacheTransceiverBackend] = None
    max_tokens_in_buffer: Optional[int] = None


class MTPDecodingConfig(StrictBaseModel):
    decoding_type: Literal["MTP"] = "MTP"
    num_nextn_predict_layers: int = 1


class EagleDecodingConfig(StrictBaseModel):
    decoding_type: Literal["Eagle"] = "Eagle"
    max_draft_len: Optional[int] = None
    speculative_model: Optional[str] = None


SpeculativeConfig = Union[MTPDecodingConfig, EagleDecodingConfig]


class BaseLlmArgs(StrictBaseModel):
    model: str = Field(description="The model.")
    tensor_parallel_size: int = 1
    kv_cache_config: KvCacheConfig = Field(default_factory=KvCacheConfig)
    _private: int = PrivateAttr(default=0)


class TorchLlmArgs(BaseLlmArgs):
    cache_transceiver_config: Optional[CacheTransceiverConfig] = None
    speculative_config: Optional[SpeculativeConfig] = None
    attn_backend: str = Field(default="TRTLLM")
