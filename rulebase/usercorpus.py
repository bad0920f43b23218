"""Documents users add themselves (`rulebase add`): kept in a per-user corpus, never in corpus/."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

from rulebase.sources import MANIFEST_NAME, Source, load_manifest

ENV_USER_CORPUS = "RULEBASE_USER_CORPUS"


def user_corpus_dir() -> Path:
    env = os.environ.get(ENV_USER_CORPUS)
    if env:
        return Path(env)
    data_home = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data_home) / "rulebase" / "corpus"


def load_user_sources() -> list[Source]:
    """User-added sources, marked bundled=False; none when the user has added nothing."""
    folder = user_corpus_dir()
    if not (folder / MANIFEST_NAME).is_file():
        return []
    return [dataclasses.replace(s, bundled=False) for s in load_manifest(folder)]
