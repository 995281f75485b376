from dynamo.common.configuration.utils import add_argument, add_negatable_bool_argument


class FrontendArgGroup:
    def add_arguments(self, parser):
        add_argument(parser, flag_name="--http-port", env_var="DYN_HTTP_PORT", default=8000, arg_type=int,
                     help="HTTP port.")
        add_negatable_bool_argument(parser, flag_name="--router-kv-events", env_var="DYN_ROUTER_KV_EVENTS",
                                    default=True, obsolete_flag="--kv-events", help="KV events.")
