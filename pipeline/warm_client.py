"""The command a local run's Beam starts for each worker when a warm pool is up.

It runs as ``python -I -S warm_client.py SOCKET``: the standard library only, so it
starts in milliseconds. It hands the worker's settings (the environment Beam gave it)
and its stdout and stderr to the warm pool listening on SOCKET, which forks an
already-imported worker process writing where this process writes, then
waits and ends as that worker ended: the same exit status, or killed by the same signal.
To Beam it looks exactly like the worker process it would have started itself.
"""

import json
import os
import signal
import socket
import sys

# What Beam's local runner passes a worker in its environment (local_job_service).
PASSED = ("CONTROL_API_SERVICE_DESCRIPTOR", "LOGGING_API_SERVICE_DESCRIPTOR",
          "PIPELINE_OPTIONS", "WORKER_ID")


def main(path: str) -> int:
    settings = {k: os.environ[k] for k in PASSED if k in os.environ}
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.connect(path)
        message = json.dumps(settings).encode() + b"\n"
        sent = socket.send_fds(s, [message], [1, 2])
        if sent < len(message):
            s.sendall(message[sent:])
        reply = b""
        while not reply.endswith(b"\n"):
            chunk = s.recv(64)
            if not chunk:
                break
            reply += chunk
    word = reply.decode().split()
    if len(word) != 2:
        print("warm worker pool: the pool ended before the worker did", file=sys.stderr)
        return 1
    how, value = word[0], int(word[1])
    if how == "signal":  # end the same way (SIGKILL and SIGSTOP cannot be caught anyway)
        if value not in (signal.SIGKILL, signal.SIGSTOP):
            signal.signal(value, signal.SIG_DFL)
        os.kill(os.getpid(), value)
    return value


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
