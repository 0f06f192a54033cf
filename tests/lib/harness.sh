# tests/lib/harness.sh - shared by the CLI test scripts that source it
# (`. tests/lib/harness.sh` from the project root, as make check runs them):
# the program under test, a scratch directory, pass/fail counts and the
# expect_* checks.  Not a test itself (make check runs tests/cli*.sh only).
M=${MANCALA:-./mancala}
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Data and state in the scratch directory, never the real home, and no
# endgame tables unless a test asks for them (as make check runs it too).
XDG_DATA_HOME=$tmp/xdg/data
XDG_STATE_HOME=$tmp/xdg/state
MANCALA_EGDB_DIR=none
export XDG_DATA_HOME XDG_STATE_HOME MANCALA_EGDB_DIR

skipped=0
ok() { pass=$((pass + 1)); }
# skip DESC WHY: a check that cannot run here, told and counted apart.
skip() { skipped=$((skipped + 1)); echo "SKIPPED: $1: $2" >&2; }
bad() { fail=$((fail + 1)); echo "FAILED: $*" >&2; }

# expect_out DESC EXPECTED CMD...: exit 0 and stdout exactly EXPECTED
expect_out() {
    desc=$1 want=$2
    shift 2
    got=$("$@" 2>"$tmp/err")
    rc=$?
    if [ $rc -eq 0 ] && [ "$got" = "$want" ]; then ok; else
        bad "$desc: rc=$rc stdout='$got' want='$want' stderr='$(cat "$tmp/err")'"
    fi
}

# expect_err DESC STATUS TEXT CMD...: exit STATUS, empty stdout, TEXT on stderr
expect_err() {
    desc=$1 want_rc=$2 text=$3
    shift 3
    "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc -eq "$want_rc" ] && [ ! -s "$tmp/out" ] &&
        grep -q -- "$text" "$tmp/err"; then ok; else
        bad "$desc: rc=$rc (want $want_rc) stdout='$(cat "$tmp/out")' stderr='$(cat "$tmp/err")' (want '$text')"
    fi
}

# expect_grep DESC TEXT CMD...: exit 0 and TEXT somewhere in stdout
expect_grep() {
    desc=$1 text=$2
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc -eq 0 ] && grep -q -- "$text" "$tmp/out"; then ok; else
        bad "$desc: rc=$rc, '$text' not in: $(head -c 600 "$tmp/out") $(cat "$tmp/err")"
    fi
}

# finish NAME: the closing line CI reads, and the exit status
finish() {
    if [ "$skipped" -gt 0 ]; then
        echo "$1: $pass passed, $fail failed, $skipped skipped"
    else
        echo "$1: $pass passed, $fail failed"
    fi
    [ "$fail" -eq 0 ]
}
