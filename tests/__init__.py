"""The tests. Python caches what it compiles here even where the environment says not to
(``PYTHONDONTWRITEBYTECODE=1``, as on the machines that run this suite): without the cache,
every run compiles every module of the project again and pytest rewrites every test module's
assertions again, about a quarter of the fast suite's time. The cache is ``__pycache__`` beside
each file (ignored by git), checked against the source's time and size like any other.
Set here, the first thing a run imports of ours, so that it covers the conftest's imports too.
"""

import sys

sys.dont_write_bytecode = False
