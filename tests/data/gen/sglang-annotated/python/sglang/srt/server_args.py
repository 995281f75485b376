import argparse
import dataclasses
from typing import Annotated as A
from typing import Literal, Optional

from sglang.srt.arg_groups.arg_utils import Arg


class QuietAction(argparse.Action):
    """A switch by its nargs=0, whatever the field's type."""

    def __init__(self, option_strings, dest, nargs=0, **kwargs):
        super().__init__(option_strings, dest, nargs=nargs, **kwargs)

KvDType = Literal["auto", "fp8_e4m3", "bf16"]


@dataclasses.dataclass
class ServerArgs:
    model_path: A[str, Arg(aliases=["--model"], help="The model weights.")] = None
    tp_size: A[int, Arg(aliases=["--tensor-parallel-size"])] = 1
    kv_cache_dtype: A[KvDType, Arg(help="KV cache data type.")] = "auto"
    enable_dp_attention: A[bool, Arg()] = False
    speculative_algorithm: A[Optional[str], Arg(choices=["EAGLE", "EAGLE3", "NGRAM"])] = None
    cuda_graph_bs: A[Optional[list[int]], Arg()] = None
    internal_state: int = 0
    enable_ep_moe: A[bool, Arg(deprecated=True, help="Deprecated: use --ep-size.")] = False
    quiet_level: A[int, Arg(action=QuietAction)] = 0
    negatable_log: A[bool, Arg(action=argparse.BooleanOptionalAction)] = True
