from dynamo.common.configuration.utils import add_argument


class RuntimeArgGroup:
    def add_arguments(self, parser):
        add_argument(parser, flag_name="--namespace", env_var="DYN_NAMESPACE", default="dynamo",
                     help="Namespace.")
        add_argument(parser, flag_name="--connector", env_var="DYN_CONNECTOR", default=["nixl"],
                     nargs="*", choices=["nixl", "lmcache", "none"], help="KV connectors.")
