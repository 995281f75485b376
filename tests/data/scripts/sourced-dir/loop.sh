LOOPED=1
source loop.sh
