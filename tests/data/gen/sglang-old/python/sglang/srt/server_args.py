import argparse
import dataclasses
from typing import List, Optional

from sglang.srt.arg_groups.argparse_actions import LegacyStoreAction, QuietToggleAction, RatioAction, RenamedSwitchAction

ATTENTION_BACKENDS = ["flashinfer", "triton"]
MORE_BACKENDS = ATTENTION_BACKENDS + ["fa3"]


class DeprecatedAction(argparse.Action):
    def __init__(self, option_strings, dest, nargs=0, **kwargs):
        super().__init__(option_strings, dest, nargs=nargs, **kwargs)


@dataclasses.dataclass
class ServerArgs:
    model_path: str
    tp_size: int = 1
    mem_fraction_static: Optional[float] = None
    kv_cache_dtype: str = "auto"
    page_size: int = 1
    disable_cuda_graph: bool = False
    attention_backend: Optional[str] = None

    @staticmethod
    def add_cli_args(parser: argparse.ArgumentParser):
        parser.add_argument("--model-path", "--model", type=str, required=True)
        parser.add_argument("--tp-size", "--tensor-parallel-size", type=int, default=ServerArgs.tp_size)
        parser.add_argument("--mem-fraction-static", type=float, default=ServerArgs.mem_fraction_static)
        parser.add_argument("--kv-cache-dtype", type=str, default=ServerArgs.kv_cache_dtype,
                            choices=["auto", "fp8_e5m2", "fp8_e4m3"])
        parser.add_argument("--page-size", type=int, default=ServerArgs.page_size)
        parser.add_argument("--pp-size", type=int, default=1)
        parser.add_argument("--pp-max-micro-batch-size", type=int, default=None)
        parser.add_argument("--disable-cuda-graph", action="store_true")
        parser.add_argument("--attention-backend", type=str, choices=MORE_BACKENDS,
                            default=ServerArgs.attention_backend)
        parser.add_argument("--enable-ep-moe", action=DeprecatedAction,
                            help="NOTE: --enable-ep-moe is deprecated. Please set `--ep-size` instead.")
        parser.add_argument("--ep-size", "--ep", type=int, default=1)
        # actions by what they do, not by their names (arg_groups/argparse_actions.py)
        parser.add_argument("--old-stream", action=LegacyStoreAction, dest="fresh_stream",
                            new_flag="--fresh-stream", help="[Deprecated] Use --fresh-stream instead.")
        parser.add_argument("--fresh-stream", action="store_true")
        parser.add_argument("--old-backend", type=str, dest="fresh_backend", action=RenamedSwitchAction,
                            new_flag="--fresh-backend", choices=["a", "b"], help=argparse.SUPPRESS)
        parser.add_argument("--fresh-backend", type=str, choices=["a", "b"])
        parser.add_argument("--old-ratio", type=float, action=RatioAction, help=argparse.SUPPRESS)
        parser.add_argument("--fresh-ratio", type=float, default=0.5)
        parser.add_argument("--quiet", action=QuietToggleAction, default=False)
        parser.add_argument("--lora-paths", nargs="*", action=ElsewhereAction)
        parser.add_argument("--checksum", type=str, nargs="?", const="", default=None)
