"""The engine's vocabulary: the stage of a game and the tasks a player has pending.

A task is a piece of work the current player still has to do, waiting on a stack
(``GameState.tasks``, the last one on top): "stamp a red flower", "place brick
edging (2 left)", "choose a plot for the Hedgehog you gained".  Each kind is a
small frozen value, so the rules read ``task.count`` rather than ``task[1]``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from papillon.edition import Edition, Effect


class Stage(StrEnum):
    """What a game is waiting for.  A ``StrEnum``: ``state.stage == "over"`` reads as before."""

    DEAL = "deal"
    """Chance: the feature display."""
    REVEAL = "reveal"
    """Chance: this round's card on top of each deck."""
    ROLL = "roll"
    """Chance: this round's dice."""
    START = "start"
    """Each player fills the butterfly space of a starting field."""
    BONUS = "bonus"
    """Each player takes the round bonus."""
    TURN = "turn"
    """A player takes a pair and resolves its parts."""
    OVER = "over"


CHANCE_STAGES = (Stage.DEAL, Stage.REVEAL, Stage.ROLL)


@dataclass(frozen=True, slots=True)
class Stamp:
    """Stamp a flower of ``colour`` (a notation code, ``'R'``) in an empty plot."""

    colour: str


@dataclass(frozen=True, slots=True)
class StampAny:
    """Stamp a flower of any colour: the colour is chosen first."""


@dataclass(frozen=True, slots=True)
class AddField:
    """Turn ``count`` more empty plots into fields; ``up_to``: the player may stop early."""

    count: int
    up_to: bool


@dataclass(frozen=True, slots=True)
class AddBrick:
    """Draw ``count`` more brick edges; ``up_to``: the player may stop early."""

    count: int
    up_to: bool


@dataclass(frozen=True, slots=True)
class Move:
    """Move a butterfly: the butterfly is chosen first."""


@dataclass(frozen=True, slots=True)
class MoveFrom:
    """Move the butterfly on ``plot``: choose where its straight line ends."""

    plot: int


@dataclass(frozen=True, slots=True)
class FieldAndMove:
    """A card's "add a field & butterfly movement": ``fields`` fields left, ``moves`` movements left."""

    fields: int
    moves: int


@dataclass(frozen=True, slots=True)
class Fill:
    """Fill a space on the Fill sheet (a ladder, a flower track or the rondel)."""


@dataclass(frozen=True, slots=True)
class CritterFill:
    """Fill one critter-ladder space."""


@dataclass(frozen=True, slots=True)
class PlaceCritter:
    """Draw the critter ``code`` just gained in an empty field (never optional)."""

    code: str


@dataclass(frozen=True, slots=True)
class GnomeBonus:
    """Choose one gnome bonus (``round_bonus``: the bonus before a bonus round, ``play.round_bonus``)."""

    round_bonus: bool = False

    def options(self, edition: Edition) -> tuple[Effect, ...]:
        """The bonuses offered: the edition's round bonus before a bonus round, else its gnome's."""
        return edition.play.round_bonus if self.round_bonus else edition.gnome


@dataclass(frozen=True, slots=True)
class ChooseFeature:
    """Choose a tile from the display."""


@dataclass(frozen=True, slots=True)
class PlaceFeature:
    """Draw the tile ``code`` in an empty field."""

    code: str


@dataclass(frozen=True, slots=True)
class FillOrMove:
    """Foot Path, one row: fill a space or move a butterfly."""


@dataclass(frozen=True, slots=True)
class PlaceBramble:
    """The die shows a bramble: choose its plot (never optional)."""


@dataclass(frozen=True, slots=True)
class DieOrder:
    """With ``play.die_order = "player"``: choose whether the die ``face``'s caterpillars (and the gnome
    bonuses they reach) or its ``extra`` icon resolve first (asked only when both have work to do)."""

    face: int
    extra: str


Task = (
    Stamp
    | StampAny
    | AddField
    | AddBrick
    | Move
    | MoveFrom
    | FieldAndMove
    | Fill
    | CritterFill
    | PlaceCritter
    | GnomeBonus
    | ChooseFeature
    | PlaceFeature
    | FillOrMove
    | PlaceBramble
    | DieOrder
)

__all__ = [
    "CHANCE_STAGES",
    "AddBrick",
    "AddField",
    "ChooseFeature",
    "CritterFill",
    "DieOrder",
    "FieldAndMove",
    "Fill",
    "FillOrMove",
    "GnomeBonus",
    "Move",
    "MoveFrom",
    "PlaceBramble",
    "PlaceCritter",
    "PlaceFeature",
    "Stage",
    "Stamp",
    "StampAny",
    "Task",
]
