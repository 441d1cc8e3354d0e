"""Matrix adapter (matrix-nio): ``!commands``, text and reaction moves, boards edited in place.

The application builds it from ``MATRIX_*`` settings::

    adapter = MatrixAdapter(service, MatrixConfig(homeserver=..., user_id=..., password=...))
    await adapter.run(stop)  # until `stop` is set
"""

from adapters.matrix.adapter import MatrixAdapter
from adapters.matrix.config import MatrixConfig

__all__ = ["MatrixAdapter", "MatrixConfig"]
