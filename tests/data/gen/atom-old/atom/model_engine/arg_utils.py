# A made-up excerpt in ATOM's early style: a dataclass of engine arguments
# whose add_cli_args declares each flag with plain parser.add_argument calls,
# spelled with '-' or '_' as each was written.
import argparse
from dataclasses import dataclass


@dataclass
class EngineArgs:
    model: str = "org/tiny-model"
    tensor_parallel_size: int = 1
    enable_cache: bool = False
    cache_dtype: str = "bf16"
    warm_up: bool = False

    @staticmethod
    def add_cli_args(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
        parser.add_argument("--model", type=str, default="org/tiny-model", help="Model.")
        parser.add_argument("--tensor-parallel-size", "-tp", type=int, default=1, help="TP.")
        parser.add_argument("--enable_cache", action="store_true", help="Cache.")
        parser.add_argument("--cache_dtype", choices=["bf16", "fp8"], type=str, default="bf16",
                            help="Cache type.")
        parser.add_argument("--warm-up", action="store_true", help="Warm up.")
        return parser
