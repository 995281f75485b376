#!/bin/sh
# docs_url.sh: cmake/docs_url.cmake turns the git remote forms into the web
# address SARIF's helpUri is built on, and refuses what has none.
set -u
fails=0
pass=0
t() { # REMOTE WANT
	got=$(cmake -DREMOTE="$1" -P cmake/docs_url.cmake 2>&1)
	[ "$got" = "$2" ] && pass=$((pass + 1)) || { echo "FAIL '$1': got '$got', want '$2'"; fails=$((fails + 1)); }
}
t https://github.com/acme/servelint.git https://github.com/acme/servelint/blob/HEAD
t https://github.com/acme/servelint/ https://github.com/acme/servelint/blob/HEAD
t https://token@github.com/acme/servelint https://github.com/acme/servelint/blob/HEAD
t git@github.com:acme/servelint.git https://github.com/acme/servelint/blob/HEAD
t ssh://git@github.com:22/acme/servelint.git https://github.com/acme/servelint/blob/HEAD
t git@gitlab.com:group/sub/servelint.git https://gitlab.com/group/sub/servelint/-/blob/HEAD
# no web address: a local path, file://, a bare host
t /srv/git/servelint.git ''
t file:///srv/git/servelint ''
t ../servelint ''
t https://github.com/servelint ''
echo "$pass passed, $fails failed"
[ $fails -eq 0 ]
