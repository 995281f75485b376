#!/bin/sh
# review.sh SERVELINT [--update]: `servelint review` over the history of
# tests/data/mkrepo.sh, whose YAML change brings a new SL4002 (decode's
# memory fraction no longer prefill's): reported by the reviews that span
# that commit, and not repeated by those that start after it (the rename).
set -u
. "$(dirname "$0")/lib.sh"
gold=review
mkhist
rv() { (cd "$hist" && "$bin" review "$@"); }
golden all.tty rv --color never HEAD~7 HEAD
golden yaml.md rv --format markdown HEAD~5 HEAD~3
golden after.tty rv --color never HEAD~3
rv HEAD~7 HEAD > /dev/null
[ $? -eq 1 ] && ok || ko "exit 1 on a new warning"
rv --failure-threshold error HEAD~7 HEAD > /dev/null
[ $? -eq 0 ] && ok || ko "--failure-threshold error"
rv HEAD~3 > /dev/null
[ $? -eq 0 ] && ok || ko "exit 0 when the finding is old"
n=$(rv --format sarif HEAD~4 HEAD~3 | grep -c '"ruleId": "SL4002"')
[ "$n" -eq 1 ] && ok || ko "sarif: $n SL4002 results"
rv nosuchrev > /dev/null 2>&1
[ $? -eq 2 ] && ok || ko "unknown revision"
rv > /dev/null 2>&1
[ $? -eq 3 ] && ok || ko "no BASE"
rv --format xml HEAD~1 > /dev/null 2>&1
[ $? -eq 3 ] && ok || ko "unknown format"
finish
