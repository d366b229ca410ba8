"""The errors of the piecepack game. All are :class:`~goldrush_env.errors.GoldrushEnvError` (so ``ValueError``)."""

from goldrush_env.errors import GoldrushEnvError


class PiecepackError(GoldrushEnvError):
    """Base class: a bad argument, setup, record or action, refused before any state changed."""


class SetupError(PiecepackError):
    """A setup or record that the box and the rules cannot produce (a missing piece, a die face of 7...)."""


class IllegalActionError(PiecepackError):
    """An action index the mask does not allow now (or the game is over)."""
