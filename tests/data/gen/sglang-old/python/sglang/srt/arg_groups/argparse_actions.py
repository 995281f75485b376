import argparse
import logging

logger = logging.getLogger(__name__)
_GONE = "this flag is deprecated; use --fresh-ratio instead"


class LegacyStoreAction(argparse.Action):
    """Despite its name a switch: __init__ gives argparse nargs=0."""

    def __init__(self, option_strings, dest, new_flag=None, nargs=0, const=True, default=False, **kwargs):
        self.new_flag = new_flag
        super().__init__(option_strings, dest, nargs=nargs, const=const, default=default, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        hint = f" Use '{self.new_flag}' instead." if self.new_flag else ""
        logger.warning(f"'{option_string}' is deprecated.{hint}")
        setattr(namespace, self.dest, True)


class RenamedSwitchAction(argparse.Action):
    """Takes its value as argparse's default action does."""

    def __init__(self, option_strings, dest, new_flag=None, **kwargs):
        self.new_flag = new_flag
        super().__init__(option_strings, dest, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        logger.warning(f"'{option_string}' is deprecated, use '{self.new_flag}'")
        setattr(namespace, self.dest, values)


class RatioAction(argparse.Action):
    def __call__(self, parser, namespace, values, option_string=None):
        logger.warning(_GONE)
        setattr(namespace, self.dest, values)


class QuietToggleAction(argparse.BooleanOptionalAction):
    pass
