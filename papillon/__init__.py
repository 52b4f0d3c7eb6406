"""papillon: the open-source companion for the Papillon Gardens roll-and-write game.

The model (this package's top level) is pure: it needs shapely, never the PDF,
image or command-line libraries.

>>> import papillon
>>> garden = papillon.Garden.empty()
>>> papillon.score(garden).total
0
"""

from papillon.edition import Edition, load_edition, standard_edition
from papillon.errors import EditionError, IllegalActionError, NotationError, PapillonError, ScanError
from papillon.garden import Cell, Garden, Ground
from papillon.grid import EDGES, PLOTS, Edge, Plot, parse_edge, parse_plot, plot_name
from papillon.notation import format_garden, parse
from papillon.score import ScoreCard, score

__version__ = "0.1.0"

__all__ = [
    "EDGES",
    "PLOTS",
    "Cell",
    "Edge",
    "Edition",
    "EditionError",
    "Garden",
    "Ground",
    "IllegalActionError",
    "NotationError",
    "PapillonError",
    "Plot",
    "ScanError",
    "ScoreCard",
    "format_garden",
    "load_edition",
    "parse",
    "parse_edge",
    "parse_plot",
    "plot_name",
    "score",
    "standard_edition",
]
