"""Photo generators for the scanner tests (not installed with papillon)."""
