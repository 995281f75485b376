from typing import Literal

from vllm.config.utils import config

EagleTypes = Literal["alpha", "alpha2"]
DraftMethod = Literal["ngram", "gamma", EagleTypes]


@config
class SpeculativeConfig:
    method: DraftMethod | None = None
    num_speculative_tokens: int | None = None
    acceptance_rate: float = 0.5
    draft_tensor_parallel_size: int | None = None
    enforce_eager: bool | None = None
    model_overrides: dict[str, int] = None
