SEQS=256
. ./env.sh
