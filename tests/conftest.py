import json
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


def load_vectors() -> list[dict]:
    with open(DATA / "vectors.jsonl") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def layout_of(cards: dict[int, str]) -> list[str]:
    """A 64-position layout holding ``cards`` ({position: code}) and gaps elsewhere."""
    return [cards.get(position, "-") for position in range(64)]


@pytest.fixture
def vectors() -> list[dict]:
    return load_vectors()
