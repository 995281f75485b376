"""A small real stand-in for a serving engine, for tests/run.sh.

It is started under the name of the program it replaces (vllm, etcd, or
python3 -m dynamo.frontend / dynamo.vllm, through the wrappers run.sh
writes) and behaves as that program does for `servelint run`: it listens
on the port its arguments name and answers readiness after a delay.

Its behaviour comes from the environment the entry gives it:
  STANDIN_MODE   serve (default), ignore-term, never-ready, crash,
                 die-after (exits 1 s after it is ready), orphan (leaves a
                 grandchild in its own session, as a daemonizing helper would),
                 daemon (a grandchild in its own session that ignores SIGTERM
                 and listens on the port + 1), fork-child (a child in its own
                 process group that ignores SIGTERM), flood-crash (writes
                 70 MB of log, then a last line, and exits 3)
  STANDIN_DELAY  seconds before it is ready (default 0.3)
  STANDIN_LOG    a file that gets "start NAME" and "term NAME" lines
  STANDIN_REGISTRY, STANDIN_WORKERS: a Dynamo worker writes a file into the
                 registry when ready; the frontend lists a model once
                 STANDIN_WORKERS files are there
"""
import http.server
import json
import os
import signal
import socketserver
import sys
import threading
import time

prog = sys.argv[1]
args = sys.argv[2:]
mode = os.environ.get("STANDIN_MODE", "serve")
delay = float(os.environ.get("STANDIN_DELAY", "0.3"))
started = time.monotonic()
name = prog
for flag in ("--disaggregation-mode",):
    if flag in args:
        name = prog + ":" + args[args.index(flag) + 1]


def log(what):
    path = os.environ.get("STANDIN_LOG")
    if path:
        with open(path, "a") as f:
            f.write("%s %s\n" % (what, name))


def arg(flag, default=None):
    for i, a in enumerate(args):
        if a == flag and i + 1 < len(args):
            return args[i + 1]
        if a.startswith(flag + "="):
            return a[len(flag) + 1:]
    return default


def ready():
    return mode != "never-ready" and time.monotonic() - started >= delay


def registered():
    reg = os.environ.get("STANDIN_REGISTRY")
    want = int(os.environ.get("STANDIN_WORKERS", "1"))
    return reg is not None and os.path.isdir(reg) and len(os.listdir(reg)) >= want


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path == "/health":
            code, body = (200, b"ok") if ready() else (503, b"loading")
        elif self.path == "/v1/models":
            models = [{"id": "standin"}] if (prog != "frontend" or registered()) else []
            code, body = (200, json.dumps({"data": models}).encode()) if ready() else (503, b"{}")
        else:
            code, body = 404, b"no such route"
        self.send_response(code)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *a):
        pass


def on_term(sig, frame):
    log("term")
    if mode == "ignore-term":
        print("ignoring SIGTERM", flush=True)
        return
    print("stopping on SIGTERM", flush=True)
    os._exit(0)


signal.signal(signal.SIGTERM, on_term)
if prog == "frontend" and os.environ.get("STANDIN_REGISTRY"):
    # a new deployment: the workers of an earlier one are gone
    reg = os.environ["STANDIN_REGISTRY"]
    for f in os.listdir(reg) if os.path.isdir(reg) else []:
        os.unlink(os.path.join(reg, f))
log("start")
print("standin %s %s" % (prog, " ".join(args)), flush=True)
print("cwd %s" % os.getcwd(), flush=True)
if "--config" in args:
    with open(arg("--config")) as f:
        print("config %s" % f.read().strip(), flush=True)

if mode == "flood-crash":
    line = "x" * 1023 + "\n"
    for _ in range(70 * 1024):
        sys.stdout.write(line)
    print("fatal: the last line (stand-in)", flush=True)
    sys.exit(3)

if mode == "crash":
    time.sleep(delay)
    print("loading weights\nRuntimeError: CUDA out of memory (stand-in)", flush=True)
    sys.exit(3)

if mode == "orphan":
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            while True:
                time.sleep(1)
        os._exit(0)

def hold(port_to_hold):
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if port_to_hold:
        s = socketserver.TCPServer(("127.0.0.1", port_to_hold), socketserver.BaseRequestHandler)
        threading.Thread(target=s.serve_forever, daemon=True).start()
    while True:
        time.sleep(1)


if mode == "daemon":
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            hold(int(arg("--port", "8000")) + 1)
        os._exit(0)
    os.wait()

if mode == "fork-child":
    if os.fork() == 0:
        os.setpgid(0, 0)
        hold(None)

port = None
if prog == "etcd":
    url = arg("--listen-client-urls", "http://127.0.0.1:2379")
    port = int(url.rsplit(":", 1)[1])
elif prog == "frontend":
    port = int(arg("--http-port", "8000"))
elif prog in ("vllm", "sglang", "trtllm-serve"):
    port = int(arg("--port", "8000"))

if port is None:
    # a Dynamo worker: no port of its own; it registers once ready
    time.sleep(delay)
    reg = os.environ.get("STANDIN_REGISTRY")
    if reg and mode != "never-ready":
        os.makedirs(reg, exist_ok=True)
        open(os.path.join(reg, name.replace(":", "-") + "-%d" % os.getpid()), "w").close()
    while True:
        time.sleep(1)

socketserver.TCPServer.allow_reuse_address = True
if prog == "etcd":
    srv = socketserver.TCPServer(("127.0.0.1", port), socketserver.BaseRequestHandler)
else:
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
threading.Thread(target=srv.serve_forever, daemon=True).start()
if mode == "die-after":
    while not ready():
        time.sleep(0.05)
    time.sleep(1)
    print("fatal: engine died (stand-in)", flush=True)
    os._exit(1)
while True:
    time.sleep(1)
