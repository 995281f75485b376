import argparse
import dataclasses
from typing import Annotated as A
import json
from typing import Dict, List, Literal, Optional, Union

from sglang.srt.arg_groups.arg_utils import NS, Arg, add_cli_args_from_dataclass
from sglang.srt.arg_groups.argparse_actions import (
    CheckedPathAction,
    DeprecatedAction,
    DeprecatedAliasStoreAction,
    DeprecatedStoreConstAction,
    DeprecatedStoreTrueAction,
    LoRAPathAction,
)


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
    # the style of SGLang 0.5.14 on: a bare string is the help text, NS(...) a
    # namespace marker; cli_name, no_cli, type_parser, action, action_kwargs
    host: A[str, "The host of the HTTP server.", NS("serving")] = "127.0.0.1"
    grpc_port: A[
        Optional[int],
        "Port for the gRPC server. "
        "Off by default.",
        NS("serving"),
    ] = None
    gemm_backend_bf16: A[str, Arg(help="BF16 GEMM.", cli_name="--bf16-gemm", choices=["auto", "torch"]), NS("k")] = "auto"
    prefill_cp: A[bool, Arg(no_cli=True), NS("parallel")] = False
    overrides: A[Optional[List[str]], Arg(help="JSON list.", type_parser=json_list_type)] = None
    quant_config: A[Optional[Union[str, Dict]], "A name or a dict."] = None
    bucket_latency: A[Optional[List[float]], "Buckets."] = None
    target_modules: A[Optional[Union[set[str], List[str]]], Arg(nargs="*", choices=["q", "k", "all"])] = None
    enable_fusion: A[bool, Arg(action=argparse.BooleanOptionalAction)] = True
    adapters: A[Optional[List[str]], Arg(action=LoRAPathAction, action_kwargs={"type": str, "nargs": "*"})] = None
    model_override: A[str, Arg(type_parser=json.loads)] = "{}"

    @staticmethod
    def add_cli_args(parser):
        add_cli_args_from_dataclass(parser, ServerArgs)
        parser.add_argument("--stream-output", action=DeprecatedStoreTrueAction, dest="incremental",
                            new_flag="--incremental-output", help="[Deprecated] Use --incremental-output instead.")
        parser.add_argument("--enable-breakable-graph", action=DeprecatedStoreConstAction, dest="graph_backend",
                            const_value="breakable", new_flag="--graph-backend=breakable",
                            help="Deprecated alias for --graph-backend=breakable.")
        parser.add_argument("--disable-graph", action=DeprecatedStoreTrueAction,
                            new_flag="--graph-backend-{decode,prefill}=disabled",
                            help="Deprecated. Use --graph-backend-{decode,prefill}=disabled instead.")
        parser.add_argument("--old-strategy", dest="strategy", type=str, action=DeprecatedAliasStoreAction,
                            new_flag="--strategy", help="Deprecated alias for --strategy.")
        # refused: the action exits at the flag (error_message given); only
        # deprecated without one; a value's check is no refusal
        parser.add_argument("--enable-old-metrics", action=DeprecatedAction,
                            error_message="--enable-old-metrics is no longer supported. Use --metrics-mode instead.",
                            help="Removed. Use --metrics-mode instead.")
        parser.add_argument("--enable-old-trace", action=DeprecatedAction,
                            help="Deprecated. Use --trace-mode instead.")
        parser.add_argument("--checked-paths", action=CheckedPathAction, nargs="+")
