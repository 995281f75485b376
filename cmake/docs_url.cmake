# docs_url.cmake: the web address SARIF's helpUri and informationUri are
# built on (BASE, as BASE/rules/ID-name.yaml), when the build is not given
# one with -DSERVELINT_DOCS_URL=... . It is the source tree's git remote
# `origin` turned into its web form, at HEAD (GitHub and GitLab resolve
# blob/HEAD to the default branch), so a link names the rule's file in the
# repository the build came from; with no remote there is no real address,
# and BASE is empty: helpUri is then left out (SARIF makes it optional),
# never a guessed one.
#
# sl_docs_url_from_remote(REMOTE OUT): REMOTE as git prints it (https://,
# ssh://git@, git@host:owner/repo(.git)) to https://host/owner/repo/blob/HEAD,
# or "" when it is not one of those forms (a local path, file://).
# As a script (cmake -DREMOTE=... -P docs_url.cmake) it prints the result,
# for tests/docs_url.sh.
function(sl_docs_url_from_remote remote out)
  set(r "${remote}")
  string(STRIP "${r}" r)
  string(REGEX REPLACE "\\.git/?$" "" r "${r}")
  string(REGEX REPLACE "/$" "" r "${r}")
  if(r MATCHES "^https?://([^@/]+@)?([^/]+)/(.+/.+)$")
    set(url "https://${CMAKE_MATCH_2}/${CMAKE_MATCH_3}")
  elseif(r MATCHES "^ssh://([^@/]+@)?([^/:]+)(:[0-9]+)?/(.+/.+)$")
    set(url "https://${CMAKE_MATCH_2}/${CMAKE_MATCH_4}")
  elseif(r MATCHES "^([^@/]+@)?([^/:]+):([^/].*/.+)$")
    set(url "https://${CMAKE_MATCH_2}/${CMAKE_MATCH_3}")
  else()
    set(${out} "" PARENT_SCOPE)
    return()
  endif()
  if(url MATCHES "^https://gitlab\\.")
    set(${out} "${url}/-/blob/HEAD" PARENT_SCOPE)
  else()
    set(${out} "${url}/blob/HEAD" PARENT_SCOPE)
  endif()
endfunction()

if(CMAKE_SCRIPT_MODE_FILE AND DEFINED REMOTE)
  sl_docs_url_from_remote("${REMOTE}" u)
  message("${u}")
endif()
