from typing import Literal

from pydantic.dataclasses import dataclass

OptimizationLevel = Literal[0, 1, 2, 3]


@dataclass
class VllmConfig:
    optimization_level: OptimizationLevel = 2
    max_num_batched_tokens: int | None = None
