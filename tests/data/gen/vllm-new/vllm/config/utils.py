from pydantic.dataclasses import dataclass


def config(cls=None, *, extra=None):
    """A decorator that makes a pydantic dataclass."""
    def wrap(c):
        return dataclass(c)
    return wrap(cls) if cls is not None else wrap
