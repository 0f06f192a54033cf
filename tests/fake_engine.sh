#!/bin/sh
# tests/fake_engine.sh MODE - a fake engine for tests/cli_match.sh: it
# answers hello, set, position, isready and quit like an engine, but never
# answers 'go' in time (or with a move).  MODE (the first argument):
#   stoppable  it "searches" until 'stop', then answers 'bestmove A'
#   hang       it sleeps (reading nothing) until it is killed
#   exit       it exits when asked to move
#   illegal    it answers at once with 'bestmove Z' (no game's move)
mode=${1:-stoppable}
while read -r line; do
    case $line in
    hello) echo "id name fake"; echo "ok hello" ;;
    set*) echo "ok set" ;;
    position*) echo "ok position" ;;
    isready) echo "ok isready" ;;
    stop) echo "bestmove A" ;;
    go*)
        case $mode in
        hang) sleep 1000 ;;
        exit) exit 3 ;;
        illegal) echo "bestmove Z" ;;
        esac ;;
    quit) echo "ok quit"; exit 0 ;;
    *) echo "error unknown" ;;
    esac
done
