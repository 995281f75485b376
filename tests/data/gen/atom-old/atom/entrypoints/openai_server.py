# A made-up excerpt: the server's main() adds its own flags to a plain
# argparse parser after the engine's.
import argparse

from atom.model_engine.arg_utils import EngineArgs

DEFAULT_PORT = 8000


def main():
    parser = argparse.ArgumentParser(description="server")
    EngineArgs.add_cli_args(parser)
    parser.add_argument("--host", type=str, default="0.0.0.0", help="Host")
    parser.add_argument("--server-port", type=int, default=DEFAULT_PORT, help="HTTP port")
    args = parser.parse_args()
    return args
