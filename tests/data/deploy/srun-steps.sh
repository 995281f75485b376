#!/bin/bash
# Slurm places each step on its own node: nothing here shares a host.
srun --nodes=1 --ntasks=1 python3 -m sglang.launch_server --model-path org/m \
  --disaggregation-mode prefill --port 30000 &
srun --nodes=1 --ntasks=1 python3 -m sglang.launch_server --model-path org/m \
  --disaggregation-mode decode --port 30000 &
wait
