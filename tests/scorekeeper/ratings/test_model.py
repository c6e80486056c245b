"""The rating model: a newcomer is rated 0, and reading its constants (as selectors and
pages do) loads no Django and none of the replay's writes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from scorekeeper.ratings.model import INITIAL_MU, INITIAL_SIGMA, conservative_rating

ROOT = Path(__file__).resolve().parents[3]


def test_a_new_player_is_rated_zero() -> None:
    assert conservative_rating(INITIAL_MU, INITIAL_SIGMA) == 0


def test_the_model_imports_nothing_but_openskill() -> None:
    probe = (
        "import json, sys, scorekeeper.ratings.model; "
        "print(json.dumps(sorted(m for m in sys.modules "
        "if m.split('.')[0] in ('django', 'scorekeeper'))))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert json.loads(done.stdout) == [
        "scorekeeper",
        "scorekeeper.ratings",
        "scorekeeper.ratings.model",
    ]
