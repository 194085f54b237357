"""The differential tests (``diff_harness.py``): skipped where the real wheels are missing.
The line per family with the number of generated cases it compared is printed by
``tests/conftest.py``'s ``pytest_terminal_summary`` (the xdist controller loads that one)."""
