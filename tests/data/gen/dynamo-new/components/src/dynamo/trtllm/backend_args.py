from dynamo.common.configuration.utils import Deprecated, add_argument, add_negatable_bool_argument
from dynamo.common.configuration.groups.shared_args import add_shared_decoding_arg, add_shared_width_arg

from .constants import DisaggregationMode


class DynamoTrtllmArgGroup:
    def add_arguments(self, parser):
        parser.add_argument("--version", action="version", version="x")
        g = parser.add_argument_group("Dynamo TRT-LLM Options")
        add_argument(g, flag_name="--model", env_var="DYN_TRTLLM_MODEL", default="m",
                     obsolete_flag="--model-path", help="The model.")
        add_argument(g, flag_name="--tensor-parallel-size", env_var="DYN_TRTLLM_TP", default=1,
                     arg_type=int, help="Tensor parallelism.")
        add_negatable_bool_argument(g, flag_name="--enable-attention-dp", env_var="DYN_TRTLLM_ADP",
                                    default=False, help="Attention DP.")
        add_argument(g, flag_name="--disaggregation-mode", env_var="DYN_TRTLLM_DISAGG", default="agg",
                     choices=[m.value for m in DisaggregationMode], help="Role.")
        add_argument(g, flag_name="--publish-events-and-metrics", env_var="DYN_TRTLLM_PUBLISH", default=None,
                     arg_type=None, action="store_true", deprecated=Deprecated(remove_in="1.5.0"),
                     help="Has no effect.")
        add_shared_decoding_arg(g, env_prefix="TRTLLM")
        add_shared_width_arg(g, "TRTLLM", self.scale)
