"""The README's Python examples run as written."""

import re
from pathlib import Path

import pytest

README = (Path(__file__).parent.parent / "README.md").read_text()
EXAMPLES = re.findall(r"```python\n(.*?)```", README, flags=re.S)


def test_the_readme_has_examples():
    assert len(EXAMPLES) >= 3


@pytest.mark.parametrize("code", EXAMPLES, ids=[f"example_{i}" for i in range(len(EXAMPLES))])
def test_readme_example_runs(code, capsys):
    exec(compile(code, "README.md", "exec"), {})
    assert capsys.readouterr().out.strip()
