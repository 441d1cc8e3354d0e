"""The application: settings, logging, and running the configured adapters (the composition
root, the only package that knows every part)."""
