# Our own excerpt in the style of Dynamo 1.4.0's
# common/configuration/groups/frontend_decoding_args.py: a helper that
# declares a flag for whichever backend calls it, its env var built from the
# caller's prefix. The generator follows the call from backend_args.py.
from dynamo.common.configuration.utils import add_argument, add_negatable_bool_argument


def add_shared_decoding_arg(g, *, env_prefix: str, default_on=False) -> None:
    add_negatable_bool_argument(
        g,
        flag_name="--shared-decoding",
        env_var=f"DYN_{env_prefix}_SHARED_DECODING",
        default=default_on,
        help="Decode in the frontend.",
    )


def add_shared_width_arg(g, prefix, scale):
    # scale is not a literal at the call: the default that depends on it is not read
    add_argument(g, flag_name="--shared-width", env_var=f"DYN_{prefix}_SHARED_WIDTH",
                 default=scale, arg_type=int, help="Width.")


def add_never_called_arg(g):
    add_argument(g, flag_name="--never-called", env_var="DYN_NEVER", help="Not called by any backend.")
