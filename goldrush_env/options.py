"""What the games' environment options share: the reward and render modes every environment offers, and
:class:`Options`, the base of each game's frozen config dataclass (Gold's :class:`~goldrush_env.gold.config.EnvConfig`,
the piecepack's :class:`~goldrush_env.piecepack.aec.PiecepackConfig`)."""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

from goldrush_env.errors import GoldrushEnvError, UnknownOptionError

REWARDS = ("win", "score")
"""Every environment's rewards (:meth:`goldrush_env.aec_base.TurnBasedEnv` pays them): ``"win"``, at the end +1 to a sole
winner, 0 to each of several, -1 to the others; ``"score"``, each seat's gain over the others' as it happens."""
RENDER_MODES = ("ansi", "rgb_array", "human")
RENAMED_VALUES = {("render_view", "table"): ("all", "0.3.0")}
"""Option values given up, with the value that replaced them and the version: ``render_view="table"`` is
``"all"`` (every card or piece face up), since *table* names the cards Gold deals."""


class Options:
    """What the games' option dataclasses share: :meth:`from_kwargs`, which refuses an unknown option by name,
    and :meth:`refuse`, which refuses a field's value, naming what is allowed, with :attr:`error`."""

    error: ClassVar[type[GoldrushEnvError]] = GoldrushEnvError

    @classmethod
    def from_kwargs(cls, **kwargs: Any) -> Any:
        """A config from keyword options; an unknown option is refused by name."""
        known = [field.name for field in dataclasses.fields(cls)]
        unknown = sorted(set(kwargs) - set(known))
        if unknown:
            raise UnknownOptionError(f"unknown option(s) {unknown} (got an unexpected keyword argument "
                                     f"{unknown[0]!r}): the options are {known}")
        for (name, old), (new, version) in RENAMED_VALUES.items():
            if kwargs.get(name) == old:
                raise cls.error(f"{name}={old!r} was renamed {new!r} in {version}: use {name}={new!r}")
        return cls(**kwargs)

    def refuse(self, name: str, allowed: str) -> None:
        raise self.error(f"{name}={getattr(self, name)!r} is not allowed: expected {allowed}")


__all__ = ["REWARDS", "RENDER_MODES", "RENAMED_VALUES", "Options"]
