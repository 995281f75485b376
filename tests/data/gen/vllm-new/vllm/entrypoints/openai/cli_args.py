from typing import Literal

from vllm.config import config


@config
class BaseFrontendArgs:
    chat_template: str | None = None
    """A Jinja template file."""
    enable_auto_tool_choice: bool = False

    @classmethod
    def add_cli_args(cls, parser):
        from vllm.engine.arg_utils import get_kwargs

        frontend_kwargs = get_kwargs(cls)
        group = parser.add_argument_group(title=cls.__name__)
        for key, value in frontend_kwargs.items():
            group.add_argument(f"--{key.replace('_', '-')}", **value)
        return parser


@config
class FrontendArgs(BaseFrontendArgs):
    host: str | None = None
    port: int = 8000
    uvicorn_log_level: Literal["info", "debug"] = "info"
    allowed_origins: list[str] = field(default_factory=lambda: ["*"])
