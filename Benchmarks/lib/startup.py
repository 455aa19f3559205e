#!/usr/bin/env python3
"""Starts a server and measures the time until its port accepts a connection.

Usage: startup.py PORT LOG COMMAND...  — prints "PID MILLISECONDS" and leaves the server
running in its own session (the caller stops it by PID). Polls every millisecond, so the
figure is the process start, its initialisation and the listen, within about 1 ms.
"""
import socket
import subprocess
import sys
import time

port, log, command = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
with open(log, "ab") as output:
    start = time.perf_counter()
    server = subprocess.Popen(command, stdout=output, stderr=output, start_new_session=True)
while True:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        break
    except OSError:
        if server.poll() is not None:
            sys.exit(f"the server exited with status {server.returncode} before listening (see {log})")
        if time.perf_counter() - start > 30:
            server.kill()
            sys.exit(f"nothing listened on port {port} within 30 s (see {log})")
        time.sleep(0.001)
print(server.pid, round((time.perf_counter() - start) * 1000, 1))
