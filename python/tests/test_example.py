"""The example of docs/PYTHON.md runs and its asserts hold."""
import os
import subprocess
import sys

from conftest import ROOT


def test_tour_runs():
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
    out = subprocess.run([sys.executable,
                          os.path.join(ROOT, "python", "examples", "tour.py")],
                         env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "4,4,0,5,5,5/5,4,4,4,4,4 N cap=0,0" in out.stdout


def test_docs_show_the_tour():
    # docs/PYTHON.md quotes the script; the quote must be the script.
    doc = open(os.path.join(ROOT, "docs", "PYTHON.md")).read()
    tour = open(os.path.join(ROOT, "python", "examples", "tour.py")).read()
    body = tour.split('"""', 2)[2].strip()
    assert body in doc
