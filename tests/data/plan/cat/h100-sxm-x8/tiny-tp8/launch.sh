# A made-up model of the catalogue's own models/ folder: 12 heads do not
# split over TP8, and 16384 tokens are past its 8192 positions.
vllm serve org/Tiny-1B --tensor-parallel-size 8 --max-model-len 16384
