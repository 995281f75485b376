import argparse


def make_arg_parser(parser):
    parser.add_argument("--host", type=str, default=None, help="Host name.")
    parser.add_argument("--port", type=int, default=8000, help="Port number.")
    parser.add_argument("--enable-auto-tool-choice", action="store_true", default=False)
    parser.add_argument("--tool-call-parser", type=str, default=None)
    parser.add_argument("--version", action="version", version="x")
    return parser
