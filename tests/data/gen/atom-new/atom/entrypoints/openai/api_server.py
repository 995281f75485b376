# A made-up excerpt: the server's main() builds the dual-spelling parser.
from atom.model_engine.arg_utils import EngineArgs
from atom.utils.arg_parser import FlexibleArgumentParser

DEFAULT_PORT = 8000


def main():
    parser = FlexibleArgumentParser(description="server")
    EngineArgs.add_cli_args(parser)
    parser.add_argument("--host", type=str, default="0.0.0.0", help="Host")
    parser.add_argument("--server-port", type=int, default=DEFAULT_PORT, help="HTTP port")
    parser.add_argument("--chat-template-kwargs", type=str, default=None, help="JSON string.")
    return parser.parse_args()
