"""Importing the module from the build tree and from `make install`: each
finds its own library (docs/PYTHON.md, "Installing")."""
import os
import subprocess
import sys

from conftest import ROOT

SHOW = ("import mancala; s = mancala.load_game('oware')"
        ".new_initial_state(); s.apply_action(0); "
        "print(mancala._capi.LIB_PATH); print(s)")


def run_python(pythonpath, cwd, extra_env=None):
    env = {k: v for k, v in os.environ.items() if k != "MANCALA_LIB"}
    env["PYTHONPATH"] = pythonpath
    env.update(extra_env or {})
    out = subprocess.run([sys.executable, "-c", SHOW], cwd=cwd, env=env,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout.splitlines()


def test_build_tree(tmp_path):
    lib, pos = run_python(os.path.join(ROOT, "python"), str(tmp_path))
    assert lib.startswith(os.path.join(ROOT, "build", "libmancala.so."))
    assert pos == "0,5,5,5,5,4/4,4,4,4,4,4 N cap=0,0"  # A sown: B..F, a


def test_mancala_lib_variable(tmp_path):
    # A copy of the library named by MANCALA_LIB wins over the build tree.
    src = [f for f in os.listdir(os.path.join(ROOT, "build"))
           if f.startswith("libmancala.so.")][0]
    copy = tmp_path / src
    copy.write_bytes(open(os.path.join(ROOT, "build", src), "rb").read())
    lib, _ = run_python(os.path.join(ROOT, "python"), str(tmp_path),
                        {"MANCALA_LIB": str(copy)})
    assert lib == str(copy)


def installed(tmp_path, prefix, destdir=""):
    # The build's own SHAREDIR and DOCDIR, so that installing into a new
    # PREFIX rebuilds nothing; and no static site (SITE=), which would go
    # into that SHAREDIR, outside the test's folder.
    share = open(os.path.join(ROOT, "build", "gen", "sharedir")).read().strip()
    doc = open(os.path.join(ROOT, "build", "gen", "docdir")).read().strip()
    out = subprocess.run(["make", "-s", "install", "PREFIX=" + prefix,
                          "DESTDIR=" + destdir, "SHAREDIR=" + share,
                          "DOCDIR=" + doc, "SAN=0", "SITE="], cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    return destdir + prefix


def test_make_install(tmp_path):
    root = installed(tmp_path, str(tmp_path / "inst"))
    pydir = os.path.join(root, "lib", "python3", "dist-packages")
    assert os.path.exists(os.path.join(pydir, "mancala", "__init__.py"))
    lib, pos = run_python(pydir, str(tmp_path))
    assert lib.startswith(os.path.join(root, "lib", "libmancala.so."))
    assert pos == "0,5,5,5,5,4/4,4,4,4,4,4 N cap=0,0"


def test_make_install_destdir(tmp_path):
    # With DESTDIR the recorded LIBDIR is not there: the library beside
    # the package's lib/ is found instead.
    dest = str(tmp_path / "stage")
    root = installed(tmp_path, "/opt/mancala-test", dest)
    pydir = os.path.join(root, "lib", "python3", "dist-packages")
    lib, _ = run_python(pydir, str(tmp_path))
    assert lib.startswith(os.path.join(root, "lib", "libmancala.so."))
