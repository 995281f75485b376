# Our own minimal actions in the style of SGLang 0.5.14's arg_groups (not
# SGLang's code): what the generator must learn from each class is whether
# argparse hands it a value (nargs) and that it warns of a deprecation.
import argparse
import logging

log = logging.getLogger(__name__)


class DeprecatedStoreTrueAction(argparse.Action):
    """A switch: nargs=0; warns that the flag is deprecated."""

    def __init__(self, option_strings, dest, new_flag=None, nargs=0, default=False, **kwargs):
        self.new_flag = new_flag
        super().__init__(option_strings, dest, nargs=nargs, default=default, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        log.warning(f"{option_string} is deprecated; use {self.new_flag}")
        setattr(namespace, self.dest, True)


class DeprecatedStoreConstAction(argparse.Action):
    """A switch storing const_value: nargs=0; deprecated."""

    def __init__(self, option_strings, dest, const_value=None, new_flag=None, nargs=0, **kwargs):
        self.const_value, self.new_flag = const_value, new_flag
        super().__init__(option_strings, dest, nargs=nargs, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        log.warning(f"{option_string} is deprecated; use {self.new_flag}")
        setattr(namespace, self.dest, self.const_value)


class DeprecatedAliasStoreAction(argparse.Action):
    """Takes a value as the flag it is a deprecated alias of."""

    def __init__(self, option_strings, dest, new_flag=None, **kwargs):
        self.new_flag = new_flag
        super().__init__(option_strings, dest, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        log.warning(f"{option_string} is deprecated; use {self.new_flag}")
        setattr(namespace, self.dest, values)


class LoRAPathAction(argparse.Action):
    """Takes values: NAME=PATH or PATH."""

    def __call__(self, parser, namespace, values, option_string=None):
        setattr(namespace, self.dest, list(values))


class DeprecatedAction(argparse.Action):
    """A switch; refuses the flag (argparse exits) when error_message is
    given, as SGLang 0.5.18's does; otherwise only warns."""

    def __init__(self, option_strings, dest, error_message=None, nargs=0, **kwargs):
        self.error_message = error_message
        super().__init__(option_strings, dest, nargs=nargs, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        if self.error_message is not None:
            parser.error(self.error_message)
        log.warning(f"{option_string} is deprecated")


class CheckedPathAction(argparse.Action):
    """Takes values; refuses a malformed one only (a value's check, not a
    refusal of the flag)."""

    def __call__(self, parser, namespace, values, option_string=None):
        for v in values:
            if "=" not in v:
                parser.error(f"bad value {v}")
        setattr(namespace, self.dest, list(values))
