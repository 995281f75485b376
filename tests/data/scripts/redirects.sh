#!/usr/bin/env bash
# Redirections among a command's words: bash ends each at its target, and
# the words after it are arguments (`--port` after `> $LOG` is a flag of
# vllm serve, and $TP after a log's redirection still decides the served
# model: two variants).
LOG=/tmp/serve.log
if [ "${BIG:-no}" = yes ]; then TP=8; else TP=4; fi
vllm serve acme/chat-7b > "$LOG" 2>&1 --tensor-parallel-size "$TP" --port 8000 &
vllm serve acme/chat-7b 2>err.log --port 8001 --max-num-seqs 64 < /dev/null &
vllm serve acme/chat-7b --port 8002 &>> "$LOG" --max-model-len 8192 | tee -a all.log &
