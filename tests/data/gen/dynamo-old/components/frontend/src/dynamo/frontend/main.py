import argparse


def parse_args():
    parser = argparse.ArgumentParser(allow_abbrev=False)
    parser.add_argument("--http-port", type=int, default=8080)
    parser.add_argument("--router-mode", type=str, choices=["round-robin", "random", "kv"], default="round-robin")
    parser.add_argument("--kv-events", action="store_true", dest="use_kv_events", default=True)
    parser.add_argument("--no-kv-events", action="store_false", dest="use_kv_events")
    return parser.parse_args()
