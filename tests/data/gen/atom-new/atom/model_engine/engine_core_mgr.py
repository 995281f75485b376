# A made-up excerpt: the choices of a flag, kept beside the code that uses them.
BALANCE_WAYS = ("round_robin", "least_busy")
BALANCE_DEFAULT = "least_busy"
