#!/bin/bash
# SGLang EAGLE with a draft tree, in the form of SGLang's speculative
# decoding docs: the first server's top-k 2 over 2 steps gives 2 + 4
# candidates, and its 8 drafts verify 7 of them (SL5004); the second's 6
# drafts fit; the third, top-k 1, is SL5002's and not SL5004's
python3 -m sglang.launch_server --model-path org/m --port 30000 --speculative-algorithm EAGLE --speculative-num-steps 2 --speculative-eagle-topk 2 --speculative-num-draft-tokens 8 &
python3 -m sglang.launch_server --model-path org/m --port 30001 --speculative-algorithm EAGLE3 --speculative-num-steps 2 --speculative-eagle-topk 2 --speculative-num-draft-tokens 7 &
python3 -m sglang.launch_server --model-path org/m --port 30002 --speculative-algorithm EAGLE --speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 8 &
wait
