"""Browser tests (a package, so its conftest.py and tests/conftest.py do not clash as two modules named conftest)."""
