"""``python -m papillon`` runs the command line."""

from papillon.cli import main

if __name__ == "__main__":
    main()
