# A made-up excerpt of a parser that registers both the '-' and the '_'
# spelling of every long flag, unless another flag has that spelling.
import argparse


class FlexibleArgumentParser(argparse.ArgumentParser):
    def add_argument(self, *names, **kwargs):
        expanded = list(names)
        for opt in names:
            if not opt.startswith("--"):
                continue
            stem = opt[2:]
            for alt in ("--" + stem.replace("_", "-"), "--" + stem.replace("-", "_")):
                if alt not in expanded and alt not in self._option_string_actions:
                    expanded.append(alt)
        return super().add_argument(*expanded, **kwargs)
