"""pip install ./python into a virtual environment, offline, with Debian's
setuptools, exactly as docs/PYTHON.md ("Installing with pip") says:

    python3 -m venv --system-site-packages V
    V/bin/pip install --no-build-isolation --no-index ./python

then the installed module, away from this tree, finds the library named
by MANCALA_LIB, or the system's libmancala.so.1 (here: a library
directory laid out as make install lays it out, on LD_LIBRARY_PATH), and
without either fails with an ImportError that says what to do."""
import ctypes.util
import os
import re
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT

SHOW = ("import mancala\n"
        "s = mancala.load_game('oware').new_initial_state()\n"
        "s.apply_action(0)\n"
        "print(mancala.__file__)\n"
        "print([l.split()[-1] for l in open('/proc/self/maps')\n"
        "       if 'libmancala' in l][0])\n"
        "print(s)\n")


def build_lib():
    here = os.path.join(ROOT, "build")
    libs = sorted(f for f in os.listdir(here)
                  if re.fullmatch(r"libmancala\.so\.\d+\.\d+\.\d+", f))
    assert libs, "make first"
    return os.path.join(here, libs[-1])


def clean_env(**extra):
    env = {k: v for k, v in os.environ.items()
           if k not in ("MANCALA_LIB", "PYTHONPATH", "LD_LIBRARY_PATH")}
    env.update(PIP_NO_CACHE_DIR="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    env.update(extra)
    return env


@pytest.fixture(scope="module")
def venv(tmp_path_factory):
    work = tmp_path_factory.mktemp("pip")
    # A copy of python/ (as a checkout has it), so that setuptools builds
    # there and not in this tree.
    shutil.copytree(os.path.join(ROOT, "python"), str(work / "python"),
                    ignore=shutil.ignore_patterns("__pycache__", "build",
                                                  "*.egg-info", "tests"))
    made = subprocess.run([sys.executable, "-m", "venv",
                           "--system-site-packages", "V"], cwd=str(work),
                          env=clean_env(), capture_output=True, text=True,
                          timeout=300)
    if made.returncode != 0 and "ensurepip" in made.stdout + made.stderr:
        pytest.skip("python3-venv is missing (apt-get install python3-venv):"
                    " pip install ./python not tested")
    assert made.returncode == 0, made.stdout + made.stderr
    out = subprocess.run([str(work / "V" / "bin" / "pip"), "install",
                          "--no-build-isolation", "--no-index", "./python"],
                         cwd=str(work), env=clean_env(), capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    run = work / "elsewhere"
    run.mkdir()
    return work, run


def run_installed(venv, env):
    work, run = venv
    return subprocess.run([str(work / "V" / "bin" / "python"), "-c", SHOW],
                          cwd=str(run), env=env, capture_output=True,
                          text=True, timeout=60)


def test_installed_with_mancala_lib(venv):
    work, _ = venv
    lib = build_lib()
    out = run_installed(venv, clean_env(MANCALA_LIB=lib))
    assert out.returncode == 0, out.stderr
    path, mapped, pos = out.stdout.splitlines()
    # The installed copy, not this tree's python/.
    assert path.startswith(str(work / "V")) and "site-packages" in path
    assert os.path.samefile(mapped, lib)
    assert pos == "0,5,5,5,5,4/4,4,4,4,4,4 N cap=0,0"  # A sown: B..F, a


def test_installed_finds_the_system_library(venv, tmp_path):
    # make install's LIBDIR: the library and its two links.
    lib = build_lib()
    name = os.path.basename(lib)
    libdir = tmp_path / "lib"
    libdir.mkdir()
    shutil.copy(lib, str(libdir / name))
    major = name.split(".")[2]
    os.symlink(name, str(libdir / ("libmancala.so." + major)))
    os.symlink("libmancala.so." + major, str(libdir / "libmancala.so"))
    out = run_installed(venv, clean_env(LD_LIBRARY_PATH=str(libdir)))
    assert out.returncode == 0, out.stderr
    _, mapped, pos = out.stdout.splitlines()
    assert os.path.samefile(mapped, str(libdir / name))
    assert pos == "0,5,5,5,5,4/4,4,4,4,4,4 N cap=0,0"


def test_installed_without_a_library(venv):
    if ctypes.util.find_library("mancala"):
        pytest.skip("this machine has a libmancala installed")
    out = run_installed(venv, clean_env())
    assert out.returncode != 0
    assert "ImportError" in out.stderr and "MANCALA_LIB" in out.stderr


def test_versions_agree():
    """pyproject.toml's version is the library's."""
    import mancala
    with open(os.path.join(ROOT, "python", "pyproject.toml")) as f:
        m = re.search(r'^version = "([^"]+)"', f.read(), re.M)
    assert m.group(1) == mancala.version()
