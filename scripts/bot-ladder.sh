#!/usr/bin/env bash
# Regenerates docs/bot-ladder.md: every game's ladder (`cardtable ladder`), one Markdown
# section each, under a fixed header. One command:
#
#   scripts/bot-ladder.sh                 # the games per fixture below, all cores
#   GAMES=200 THREADS=1 scripts/bot-ladder.sh
#
# GAMES (games per fixture, every game) or GAMES_<GAME> (one game: GAMES_SORCERY=40) set the
# counts; THREADS the worker threads (the ladder is the same whatever the count); CARDTABLE
# the binary (default: target/release/cardtable, built if missing). A ladder depends only on
# its seed and counts, so the page is reproducible; only the times vary.
#
# Each game's section is kept in target/bot-ladder/GAME.md (and its JSON); ONLY="ivanhoe
# wolfpack" runs just those games and rebuilds the page from every kept section.
set -euo pipefail
cd "$(dirname "$0")/.."

BIN=${CARDTABLE:-target/release/cardtable}
if [ ! -x "$BIN" ]; then
    cargo build --release -p cli
fi
THREADS=${THREADS:-$(nproc)}
OUT=docs/bot-ladder.md
TMP=target/bot-ladder
mkdir -p "$TMP"

# game, players, default games per fixture: the counts of the committed page, small because
# it was measured on a shared 2-core machine (Ivanhoe's and Three Kingdoms' searching levels
# cost tens of milliseconds of CPU a move); raise them for narrower intervals. Sorcery's 60
# (session 37) take about 1,300 CPU-seconds, most of them `expert`'s; Wolf Pack's 100 (session
# 38) about 2,350, 1,634 s on 2 threads; Three Kingdoms' 100 (session 40) 7,889 s on 1 thread,
# 3,405 s on 2 threads after session 41's search fix (the last fixture, `expert` against
# `seed`, runs its tail on one thread); Ivanhoe's 40 (session 41) 1,458 s on 2 threads.
GAMES_LIST=(
    "sorcery 2 ${GAMES_SORCERY:-${GAMES:-60}}"
    "buckshot 4 ${GAMES_BUCKSHOT:-${GAMES:-100}}"
    "ivanhoe 3 ${GAMES_IVANHOE:-${GAMES:-40}}"
    "three-kingdoms 5 ${GAMES_THREE_KINGDOMS:-${GAMES:-100}}"
    "wolfpack 3 ${GAMES_WOLFPACK:-${GAMES:-100}}"
)

for entry in "${GAMES_LIST[@]}"; do
    read -r game players games <<<"$entry"
    if [ -n "${ONLY:-}" ] && [[ " $ONLY " != *" $game "* ]]; then
        continue
    fi
    echo "== $game: $games games per fixture" >&2
    "$BIN" ladder "$game" --players "$players" --games "$games" --seed 1 --threads "$THREADS" \
        --markdown "$TMP/$game.md" --json >"$TMP/$game.json"
done

# The page's "What each step is worth" summary is kept by hand (each step from its run with the
# most games, often a subsection's): carried over from the page as it is.
STEPS=$(awk '/^## What each step is worth/{on=1} /^## / && !/^## What each step is worth/{on=0} on' "$OUT" 2>/dev/null || true)

{
    cat <<'EOF'
# Bot ladder: how strong each level is

Every level of every game (`random`, `easy`, `medium`, `hard`, `expert`, and a game's own bots
such as Three Kingdoms' `seed`) against the others, rated on one scale per game. Regenerate the
whole page with `scripts/bot-ladder.sh` (it runs `cardtable ladder` once per game; see the
script for the counts); each section names the command that made it.

How a ladder is played and fitted (`crates/sim/src/ladder.rs`, `crates/sim/src/rating.rs`):

- **Fixtures on the same deals.** Every pair of contestants is a fixture. Deal `d` is the same
  game seed in every fixture. The line-up's seats alternate between the two sides (`a, b, a,
  b, ...`) and every deal is played twice, the second time with the sides swapped, so each side
  plays every seat of every deal.
- **Pairwise results from the finishing order.** In a game of more than two seats, each pair of
  an `a` seat and a `b` seat is one result: a seat among the winners beats a seat that is not;
  two seats that both won or both lost count as nothing (a game nobody won counts a draw for
  every pair). Three Kingdoms' winners are a whole side, so two seats on the same side finish
  level.
- **Wolf Pack** is co-operative against the house's Ace: each pilot level (every pilot at that
  level) fights the `veteran` Ace, and the Ace tiers (`rookie`, `veteran`, `ace`) fight
  `medium` pilots; a fight is one result between the pilots' level and the Ace's tier, so the
  pilots and the tiers sit on one scale.
- **Ratings**: a Bradley-Terry fit (maximum likelihood, Hunter's MM iteration) in Elo points
  above `random` (100 points: a 64% expected score), with one virtual draw added to every pair
  that played, so a pair one side swept has a finite gap. **Intervals**: 95%, ±1.96 standard
  errors from the Fisher information of the fit (not a bootstrap); the gap between two levels
  uses the covariance of both ratings. A step is **separated** when its whole interval is
  above zero.
- Searching levels run exactly their iterations (no time cap), so a ladder is the same on any
  machine and thread count. **CPU per move** is the mean (and longest) CPU time of the playing
  thread over the level's decisions with more than one legal action; for the levels that do
  not search it is wall time, in microseconds.

EOF
    if [ -n "$STEPS" ]; then
        printf '%s\n\n' "$STEPS"
    fi
    for entry in "${GAMES_LIST[@]}"; do
        read -r game _ _ <<<"$entry"
        if [ -f "$TMP/$game.md" ]; then
            cat "$TMP/$game.md"
        fi
    done
} >"$OUT"
echo "wrote $OUT" >&2
