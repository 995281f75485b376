from argparse import ArgumentParser


class FlexibleArgumentParser(ArgumentParser):
    def _pre_process(self, args):
        out = []
        for arg in args:
            if arg.startswith("-O") and arg != "-O":
                out += ["--optimization-level", arg[2:]]
            else:
                out.append(arg)
        return out
