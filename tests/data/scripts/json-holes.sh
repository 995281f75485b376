#!/bin/bash
# Disaggregated vLLM whose JSON flag values hold what the caller gives: the
# node's address, a port, the capture sizes, the draft's token count. The
# members the script knows are read (the KV roles make prefill and decode),
# the others left unknown and named; a member the engine does not accept
# (kv_buffer_sise) and a maximum capture size below the sizes listed
# (SL4003) are found beside them.
host_ip=$(hostname -I | awk '{print $1}')
MODEL=org/model

vllm serve $MODEL --port 8100 --tensor-parallel-size 2 \
  --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_producer","kv_ip":"'"${host_ip}"'","kv_port":'"$KV_PORT"'}' \
  --compilation-config "{\"cudagraph_mode\":\"FULL_AND_PIECEWISE\",\"cudagraph_capture_sizes\":[$CAPTURE_SIZES]}" \
  --speculative-config "{\"method\":\"mtp\",\"num_speculative_tokens\":$NUM_SPEC}" &

vllm serve $MODEL --port 8200 --tensor-parallel-size 2 \
  --kv-transfer-config "{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_consumer\",\"kv_ip\":\"$host_ip\",\"kv_buffer_sise\":1e9}" \
  --compilation-config "{\"cudagraph_mode\":\"$CG_MODE\",\"cudagraph_capture_sizes\":[8,16,32,64],\"max_cudagraph_capture_size\":32}" \
  --speculative-config.num_speculative_tokens "$NUM_SPEC" --speculative-config.method mtp &
wait
