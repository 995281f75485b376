#!/usr/bin/env bash
# Loads stated in the forms of benchmark headers: tuned for concurrency 512,
# conc=512, 512 concurrent requests, batch 64 per rank, per-rank batch of 64.
# Not a load: conc 1/2/4/8/16, conc 16-256, concurrency 64 and 128, above
# conc 16; if concurrency 64 is reached the cap is raised. concurrency-independent
# acceptance; the conc-24 long-context storm.
vllm serve org/model --data-parallel-size 8 --max-num-seqs 64
