from typing import Literal, Optional

from pydantic.dataclasses import dataclass

Sender = Literal["sender", "both"]
Receiver = Literal["receiver", "both"]
Role = Literal[Sender, Receiver]


@dataclass
class KVTransferConfig:
    kv_connector: Optional[str] = None
    kv_role: Optional[Role] = None
    kv_rank: Optional[int] = None
