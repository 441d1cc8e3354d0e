"""The application: settings, logging, and running the configured adapters (the composition
root, the only package that knows every part)."""

__version__ = "0.1.0"
"""The release: the one place it is written (``pyproject.toml`` reads it when building)."""
