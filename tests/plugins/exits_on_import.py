"""A plugin file that ends the program as it is imported."""

raise SystemExit(3)
