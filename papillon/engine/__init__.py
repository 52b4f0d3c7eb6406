"""The round engine, its bots and its game logs (RULES.md §6-§8, docs/ENGINE.md).

>>> import random
>>> from papillon.engine import new_game, play_game, RandomBot
>>> final, log = play_game(seed=3, agents=[RandomBot()])
>>> final.is_over(), final.round
(True, 10)
"""

from papillon.engine.bots import BOTS, GreedyBot, RandomBot, SearchBot, make_bot
from papillon.engine.log import GameLog, GameLogError, parse_log, play_game, replay
from papillon.engine.state import Board, Game, GameState, new_game
from papillon.engine.tasks import Stage, Task

__all__ = [
    "BOTS",
    "Board",
    "Game",
    "GameLog",
    "GameLogError",
    "GameState",
    "GreedyBot",
    "RandomBot",
    "SearchBot",
    "Stage",
    "Task",
    "make_bot",
    "new_game",
    "parse_log",
    "play_game",
    "replay",
]
