from dataclasses import dataclass
from typing import Any

import logging

logger = logging.getLogger(__name__)


@dataclass
class ModelConfig:
    reducer_config: dict | None = None
    """Controls how outputs are reduced."""
    override_reducer_config: dict | None = None
    """[DEPRECATED] Use `reducer_config` instead. This field goes in v9."""
    scorer_config: dict | None = None
    """Scores."""
    legacy_scorer: dict | None = None
    """Old scores."""
    window: int = 1
    """`window` is deprecated and has been replaced with `sliding.window`.
    Please use `sliding.window` instead."""
    enable_echo: bool = False
    """Echo the prompt."""
    cache_gb: float = 4.0
    """Cache size."""
    disable_cache: bool = False
    """Turns the cache off."""
    stale_hint: str = "a"
    """No longer read."""
    auth_token: bool | str | None = None
    """A token, or True for the stored one."""

    def __post_init__(self):
        if self.legacy_scorer is not None:
            logger.warning("`legacy_scorer` is deprecated and will be removed "
                           "in v9. Please use `scorer_config` instead.")
        if self.disable_cache:
            logger.warning("`--disable-cache` is deprecated. Please use `--cache-gb 0` instead.")


@dataclass
class AsyncArgs:
    enable_echo: bool = False

    @property
    def disable_echo(self) -> bool:
        """`disable_echo` is deprecated and has been replaced with `enable_echo`.
        Please use `enable_echo` instead."""
        return not self.enable_echo
