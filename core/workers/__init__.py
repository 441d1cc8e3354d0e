"""The AI's processes: the I/O around the pure players of :mod:`core.ai`.

:class:`AiRunner` is what the service calls; :class:`PoolRunner` runs HARD searches and reviews
in a process pool (``runner.py``) whose workers run ``tasks.py``, start from a warmed-up fork
server (``server.py``) and die with the bot (``orphans.py``).
"""

from core.workers.runner import AiRunner, PoolRunner, RunnerLoad

__all__ = ["AiRunner", "PoolRunner", "RunnerLoad"]
