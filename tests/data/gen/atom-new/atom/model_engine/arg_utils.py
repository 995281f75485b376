# A made-up excerpt in ATOM's later style: switches that can be negated
# (BooleanOptionalAction), a value that may be left out (nargs="?" with a
# const), JSON values, choices from another module's tuple, an argument group.
import argparse
import json
from dataclasses import dataclass

from atom.model_engine.engine_core_mgr import BALANCE_DEFAULT, BALANCE_WAYS


@dataclass
class EngineArgs:
    model: str = "org/tiny-model"

    @staticmethod
    def add_cli_args(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
        parser.add_argument("--model", type=str, default="org/tiny-model", help="Model.")
        parser.add_argument("--tensor-parallel-size", "-tp", type=int, default=1, help="TP.")
        parser.add_argument("--enable_cache", action=argparse.BooleanOptionalAction, default=True,
                            help="Cache (default: on). Use --no-enable_cache to turn it off.")
        parser.add_argument("--cache_dtype", choices=["bf16", "fp8", "fp4"], type=str, default="bf16",
                            help="Cache type.")
        parser.add_argument("--overlap", nargs="?", const="prefill", default=None,
                            choices=["prefill", "all"], help="Overlap; bare: prefill only.")
        parser.add_argument("--balance", type=str, default=BALANCE_DEFAULT, choices=list(BALANCE_WAYS),
                            help="How requests are spread.")
        parser.add_argument("--quant_config", type=json.loads, default=None, help="JSON.")
        group = parser.add_argument_group("extra")
        group.add_argument("--extra-enable", "--enable-extra", action="store_true", help="Extra.")
        return parser
