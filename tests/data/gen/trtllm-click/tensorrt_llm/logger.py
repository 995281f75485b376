# Our own excerpt in the style of tensorrt_llm/logger.py: the severities
# --log_level chooses from are the keys of a module-level dict.
severity_map = {
    "error": 1,
    "info": 2,
    "debug": 3,
}
