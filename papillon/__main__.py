"""``python -m papillon`` runs the command line."""

from papillon.cli import main

main()
