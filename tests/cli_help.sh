#!/bin/sh
# tests/cli_help.sh - the help and the man page match the program (issue 22).
# For every subcommand (read from 'mancala --help') and its own
# subcommands (the 'mancala SUB WORD' lines of its help): the options its
# --help lists are exactly those the man page's entries for it list, and
# each of them is accepted by the program (it never answers "unknown
# option" for it).  Nothing here is a fixed list of options: they are read
# from the help at test time, so that a new option must be documented in
# both places.  Also: every environment variable the program reads is in the
# man page's ENVIRONMENT section.
. tests/lib/harness.sh
man=man/mancala.1
cwd=$(pwd)
case $M in /*) P=$M ;; *) P=$cwd/$M ;; esac

subs=$($M --help | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z]*\) .*/\1/p')
[ "$(echo $subs | wc -w)" -ge 15 ] && ok || bad "only these subcommands in mancala --help: $subs"

# opts SUB: the long options in stdin, but --help and --version (every
# command takes --help), and options written right after the name of
# another subcommand ("mancala match --openings" in the openings help is
# match's option, not openings').  One a line, sorted, unique.
opts() {
    grep -oE '([A-Za-z0-9]+ )?--[a-z][a-z0-9-]*' | while read -r a b; do
        if [ -z "$b" ]; then o=$a; else
            o=$b
            for s in $subs; do
                [ "$a" = "$s" ] && [ "$a" != "$1" ] && o=
            done
        fi
        case $o in --help | --version | "") ;; *) echo "$o" ;; esac
    done | sort -u
}

# The man page's COMMANDS section as "COMMAND<tab>line" for every line of
# every entry (the tag after a top-level .TP, then its text up to the next
# one; .RS/.RE blocks belong to their entry), fonts and \- undone.
awk '
/^\.SH/ { sec = $0; next }
sec != ".SH COMMANDS" { next }
/^\.RS/ { depth++ }
/^\.RE/ { depth-- }
/^\.TP/ && depth == 0 { tag = 1; next }
{
    line = $0
    gsub(/\\-/, "-", line); gsub(/\\f[BIRP]/, "", line); gsub(/"/, "", line)
    if (tag) {
        t = line; sub(/^\.[A-Z]+ */, "", t); split(t, w, /[ ,]/); cmd = w[1]; tag = 0
    }
    if (cmd != "") print cmd "\t" line
}' "$man" >"$tmp/man.txt"
[ -s "$tmp/man.txt" ] && ok || bad "no COMMANDS entries found in $man"

# every entry of the man page is a command the program has
for c in $(cut -f1 "$tmp/man.txt" | sort -u); do
    echo " $subs " | tr '\n' ' ' | grep -q " $c " && ok || bad "$man has an entry for '$c', which 'mancala --help' lacks"
done

mkdir -p "$tmp/run"
# unknown CONTEXT OPT: does the program call OPT unknown in CONTEXT (words
# after mancala)?  The phrasing is learnt from an option no command has;
# the trailing bogus option stops every command before it does anything.
unknown() {
    ctx=$1 o=$2
    (cd "$tmp/run" && timeout 20 $P $ctx --zzz-no-such-option </dev/null >/dev/null 2>"$tmp/bogus")
    msg=$(grep -m1 -- '--zzz-no-such-option' "$tmp/bogus")
    if [ -z "$msg" ]; then
        echo "no-reject"
        return
    fi
    want=$(printf '%s\n' "$msg" | sed "s/--zzz-no-such-option/$o/")
    (cd "$tmp/run" && timeout 20 $P $ctx "$o" 1 --zzz-no-such-option </dev/null >/dev/null 2>"$tmp/got")
    if grep -qxF -- "$want" "$tmp/got"; then echo yes; else echo no; fi
}

# flag CONTEXT F: does F take no value there (the bogus option after it is
# still called unknown)?
flag() {
    (cd "$tmp/run" && timeout 20 $P $1 "$2" --zzz-no-such-option </dev/null >/dev/null 2>"$tmp/bogus")
    grep -m1 -- '--zzz-no-such-option' "$tmp/bogus" |
        grep -Eqi "(option|argument) '--zzz-no-such-option'"
}

for s in $subs; do
    $M "$s" --help >"$tmp/h.$s" 2>"$tmp/err" || bad "$s --help: rc=$? $(cat "$tmp/err")"
    contexts=$s
    for w in $(sed -n "s/.*mancala $s \([a-z][a-z]*\)\( .*\)*$/\1/p" "$tmp/h.$s" | sort -u); do
        if $M "$s" "$w" --help >"$tmp/h2" 2>/dev/null; then
            cat "$tmp/h2" >>"$tmp/h.$s"
            contexts="$contexts|$s $w"
        fi
    done
    opts "$s" <"$tmp/h.$s" >"$tmp/help.opts"
    awk -F'\t' -v s="$s" '$1 == s { print $2 }' "$tmp/man.txt" | opts "$s" >"$tmp/man.opts"
    if grep -q "	" "$tmp/man.txt" && ! awk -F'\t' -v s="$s" '$1 == s { f = 1 } END { exit !f }' "$tmp/man.txt"; then
        bad "$man has no entry for '$s'"
        continue
    fi
    extra_help=$(comm -23 "$tmp/help.opts" "$tmp/man.opts" | tr '\n' ' ')
    extra_man=$(comm -13 "$tmp/help.opts" "$tmp/man.opts" | tr '\n' ' ')
    [ -z "$extra_help" ] && ok || bad "$s: in --help but not in $man: $extra_help"
    [ -z "$extra_man" ] && ok || bad "$s: in $man but not in --help: $extra_man"
    # each option of the help is accepted in one of the contexts (the
    # command, or the command and a game when it wants one first), or after
    # one of the command's flags (bench --time --searches N)
    all=
    IFS='|'
    for c in $contexts; do all="$all|$c|$c oware"; done
    unset IFS
    named=0
    while read -r o; do
        found=
        IFS='|'
        set -- ${all#|}
        unset IFS
        for c in "$@"; do
            r=$(unknown "$c" "$o")
            [ "$r" = no-reject ] && continue
            named=1
            [ "$r" = no ] && { found=1; break; }
        done
        if [ -z "$found" ]; then
            for f in $(cat "$tmp/help.opts"); do
                [ "$f" = "$o" ] && continue
                for c in "$@"; do
                    flag "$c" "$f" || continue
                    [ "$(unknown "$c $f" "$o")" = no ] && { found=1; break 2; }
                done
            done
        fi
        [ -n "$found" ] && ok || bad "$s --help lists $o, but the program calls it unknown"
    done <"$tmp/help.opts"
    [ ! -s "$tmp/help.opts" ] || [ $named -eq 1 ] && ok ||
        bad "'mancala $s' never names an unknown option in its error"
done

# every option the program's sources name (a string starting "--") is in
# some command's --help: no option is accepted and left unsaid
$M --help >"$tmp/h.top"
cat "$tmp"/h.* | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u >"$tmp/allhelp"
for o in $(grep -ohE '"--[a-z][a-z0-9-]*' src/cli/*.c | tr -d '"' | sort -u); do
    grep -qx -- "$o" "$tmp/allhelp" && ok || bad "$o is in src/cli but in no command's --help"
done

# the kinds of player play --help lists (human, computer, ...) are in the
# man page's play entry too
kinds=$($M play --help | sed -n '/is a player/,/^[^ ]/s/^  \([a-z][a-z]*\)  .*/\1/p')
[ "$(echo $kinds | wc -w)" -ge 2 ] && ok || bad "no player kinds in play --help: '$kinds'"
awk -F'\t' '$1 == "play" { print $2 }' "$tmp/man.txt" >"$tmp/man.play"
for k in $kinds; do
    grep -qw "$k" "$tmp/man.play" && ok || bad "$man: play's entry does not name the player '$k'"
done

# every environment variable the program reads is documented (TERM is
# ncurses' own)
sed -n '/^\.SH ENVIRONMENT/,/^\.SH /p' "$man" >"$tmp/env"
for v in $(grep -rhoE 'getenv\("[A-Za-z_]+"\)' src | sed 's/getenv("//; s/")//' | sort -u); do
    [ "$v" = TERM ] && continue
    grep -qw "$v" "$tmp/env" && ok || bad "$man: $v is read by the program but not in ENVIRONMENT"
done

# the engine protocol's commands (its 'help' answer) are those of
# man/mancala-engine.6's COMMANDS, and each 'set' option and 'go'
# parameter of the help is in that entry
eman=man/mancala-engine.6
printf 'help\nquit\n' | $M engine >"$tmp/ehelp" 2>&1
sed -n 's/^# \([a-z][a-z]*\).*/\1/p' "$tmp/ehelp" | sort -u >"$tmp/ecmds"
[ "$(wc -l <"$tmp/ecmds")" -ge 8 ] && ok || bad "engine help: $(cat "$tmp/ehelp")"
awk '
/^\.SH/ { sec = $0; next }
sec != ".SH COMMANDS" { next }
/^\.TP/ { tag = 1; next }
tag { t = $0; gsub(/\\f[BIRP]/, "", t); gsub(/"/, "", t); sub(/^\.[A-Z]+ */, "", t)
      n = split(t, w, /[ ,|]+/)
      print w[1]
      if (t ~ /, /) for (i = 2; i <= n; i++) if (w[i] ~ /^[a-z]+$/) print w[i]
      tag = 0 }' "$eman" | sort -u >"$tmp/emancmds"
d=$(comm -3 "$tmp/ecmds" "$tmp/emancmds" | tr -s '\t\n' '  ')
[ -z "$d" ] && ok || bad "engine commands differ between 'help' and $eman (help | man): $d"
for k in set go; do
    words=$(grep "^# $k " "$tmp/ehelp" | grep -o '[a-z][a-z]*' | grep -v "^$k$" |
        grep -v '^\(value\|n\)$' | sort -u)
    awk -v k="$k" '/^\.TP/ { getline; on = ($0 ~ "^\\.B[IR]* \"?" k "[ \"]") } on' "$eman" >"$tmp/eentry"
    for w in $words; do
        grep -qw "$w" "$tmp/eentry" && ok || bad "$eman: '$k $w' (in the engine's help) is not in its entry"
    done
done

finish cli_help.sh
