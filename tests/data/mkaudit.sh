#!/bin/sh
# mkaudit.sh DIR: the planted catalogue of tests/audit.sh and
# tests/audit_html.sh, built from the corpus: eleven DeepSeek V4.1 Flash
# entries copied as published, eight of them with one token changed so that
# each catalogue rule (SL7001-SL7008) has one contradiction to find. Run
# from the source root. Each change is checked to have happened.
set -eu
src=corpus/deepseek-v4.1-flash
out=$1/deepseek-v4.1-flash
copy() { # FROM [TO]
	mkdir -p "$(dirname "$out/${2:-$1}")"
	cp -r "$src/$1" "$out/${2:-$1}"
}
plant() { # FILE LINE FROM TO: on LINE of FILE, FROM becomes TO
	f=$out/$1
	cp "$f" "$f.orig"
	sed -i "$2s|$3|$4|" "$f"
	if cmp -s "$f" "$f.orig"; then
		echo "mkaudit.sh: $1:$2 has no '$3'" >&2
		exit 1
	fi
	rm "$f.orig"
}
copy b200-sxm-x8/vllm-tp4-dspark5
copy h200-sxm-x8/vllm-tp8-dspark5
copy h100-sxm-x8/vllm-tp8-nospec
# SL7001 tokenizer mode
copy b200-sxm-x8/vllm-tp2-dspark5
plant b200-sxm-x8/vllm-tp2-dspark5/launch.sh 25 "--tokenizer-mode deepseek_v41" "--tokenizer-mode auto"
# SL7002 tool-call parser
copy b300-x8/vllm-tp8-dspark5
plant b300-x8/vllm-tp8-dspark5/launch.sh 16 "--tool-call-parser deepseek_v41" "--tool-call-parser hermes"
# SL7003 reasoning parser
copy h200-sxm-x8/vllm-tp4-dspark5
plant h200-sxm-x8/vllm-tp4-dspark5/launch.sh 23 "--reasoning-parser deepseek_v41" "--reasoning-parser deepseek_r1"
# SL7004 weights revision
copy b300-x8/vllm-tp2-dspark5
plant b300-x8/vllm-tp2-dspark5/launch.sh 5 "@ dba1be0a" "@ 7c3e2f10"
# SL7005 served model name (markup in it, for the reports' escaping)
copy mi355x-x8/vllm-tp2-dspark5-mns64
plant mi355x-x8/vllm-tp2-dspark5-mns64/launch.sh 38 "--served-model-name deepseek-ai/DeepSeek-V4.1-Flash" \
	"--served-model-name '<b class=x>flash</b>'"
# SL7006 a duplicate: the same command, a comment reworded
copy h100-sxm-x8/vllm-tp8-nospec h100-sxm-x8/vllm-tp8-nospec-copy
plant h100-sxm-x8/vllm-tp8-nospec-copy/launch.sh 2 "# no speculative decoding" "# without speculative decoding"
# SL7007 metadata against the command
copy gb200-nvl72/vllm-tp2-dspark5
plant gb200-nvl72/vllm-tp2-dspark5/metadata.txt 2 "EnginevLLM (v0.31.0)" "EngineSGLang (v0.31.0)"
# SL7008 one build, two version names
copy mi355x-x8/vllm-tp2-dspark5-mns256
plant mi355x-x8/vllm-tp2-dspark5-mns256/launch.sh 6 "(vLLM 0.31.1rc1.dev1+gbb87d227d," "(vLLM 0.31.1,"
