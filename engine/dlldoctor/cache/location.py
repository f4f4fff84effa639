"""The one folder dlldoctor caches in: ``$DLLDOCTOR_CACHE_DIR``, else the platform's user cache folder."""

from __future__ import annotations

import os
from pathlib import Path

ENV_VAR = "DLLDOCTOR_CACHE_DIR"


def default_dir() -> Path:
    configured = os.environ.get(ENV_VAR)
    if configured:
        return Path(configured)
    import platformdirs

    return Path(platformdirs.user_cache_dir("dlldoctor", appauthor=False))
