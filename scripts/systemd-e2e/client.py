#!/usr/bin/env python3
"""Socket client and journal checks for scripts/systemd-e2e.sh. Runs inside the test namespace.

    client.py request SOCKET LINE          one request; prints the reply line and the seconds it took
    client.py denied SOCKET                 exits 0 only if connecting is refused with EACCES
    client.py load SOCKET COUNT CONCURRENCY PROGRESS_FILE
                                            COUNT requests on fresh connections, retried as AppFlipClient's
                                            RetryPolicy does (5 attempts, 50 ms backoff doubling to 1 s)
                                            while the connection fails or closes before the last reply, or
                                            the reply is shutting_down; prints JSON {"ok", "refused",
                                            "retried", "lost"}; writes the number of finished requests to
                                            PROGRESS_FILE every 100
    client.py journal FILE                  checks `journalctl -o json` output (see check_journal)
"""
import errno
import json
import os
import socket
import sys
import threading
import time


# The request the load sends, %d replaced by its index: override with E2E_LOAD_LINE (for appflipd, a
# hello and an `open` of a URL a built-in handler claims, separated by a newline, make every request a
# handoff). Several lines get as many replies; the last one is the request's outcome.
LOAD_LINE = os.environ.get("E2E_LOAD_LINE", '{"op":"hello","id":"load-%d","version":1}')


def request(path, line, timeout=10.0):
    """Sends the line(s); returns the last reply line and the seconds from connect to it."""
    started = time.monotonic()
    lines = line.split("\n")
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
        connection.settimeout(timeout)
        connection.connect(path)
        connection.sendall("".join(part + "\n" for part in lines).encode())
        reply = b""
        while reply.count(b"\n") < len(lines):
            chunk = connection.recv(65536)
            if not chunk:
                raise ConnectionResetError("closed before a reply")
            reply += chunk
    return reply.decode().strip().split("\n")[-1], time.monotonic() - started


def load(path, count, concurrency, progress_path):
    lock = threading.Lock()
    totals = {"ok": 0, "refused": 0, "retried": 0, "lost": 0}
    next_index = [0]

    def worker():
        while True:
            with lock:
                if next_index[0] >= count:
                    return
                index = next_index[0]
                next_index[0] += 1
            line = LOAD_LINE.replace("%d", str(index))
            outcome = "lost"
            backoff = 0.05
            for attempt in range(5):
                try:
                    reply = json.loads(request(path, line)[0])
                    if reply.get("ok") is not False:
                        outcome = "ok"
                        break
                    if reply.get("error", {}).get("code") != "shutting_down":
                        outcome = "refused"
                        break
                except (ConnectionError, FileNotFoundError, socket.timeout, OSError):
                    pass
                if attempt < 4:
                    with lock:
                        totals["retried"] += 1
                    time.sleep(backoff)
                    backoff = min(backoff * 2, 1.0)
            with lock:
                totals[outcome] += 1
                finished = totals["ok"] + totals["refused"] + totals["lost"]
                if finished % 100 == 0:
                    with open(progress_path + ".new", "w") as progress:
                        progress.write(str(finished))
                    os.replace(progress_path + ".new", progress_path)

    threads = [threading.Thread(target=worker) for _ in range(concurrency)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return totals


def check_journal(path, forbidden):
    """The probe's request entries carry the structured fields; no entry carries the secret."""
    entries = [json.loads(line) for line in open(path) if line.strip()]
    problems = []
    for entry in entries:
        for key, value in entry.items():
            if forbidden in str(value):
                problems.append(f"{key} carries the secret: {value}")
    answered = [e for e in entries if e.get("APPFLIP_HANDOFF_ID", "").startswith("probe-")]
    if not answered:
        problems.append("no entry with APPFLIP_HANDOFF_ID")
    else:
        entry = answered[0]
        expected = {
            "PRIORITY": "5",
            "SYSLOG_IDENTIFIER": "appflipd",
            "APPFLIP_CODE": "[redacted:17B]",
            "SWIFT_LOG_LABEL": "systemd-probe",
        }
        for key, value in expected.items():
            if entry.get(key) != value:
                problems.append(f"{key}={entry.get(key)!r}, expected {value!r}")
        for key in ("CODE_FILE", "CODE_LINE", "CODE_FUNC", "APPFLIP_PEER_UID", "APPFLIP_PEER_PID",
                    "APPFLIP_GENERATION", "_SYSTEMD_UNIT"):
            if key not in entry:
                problems.append(f"{key} missing")
        if "code=[redacted:17B]&state=s1" not in entry.get("MESSAGE", ""):
            problems.append(f"MESSAGE not scrubbed as expected: {entry.get('MESSAGE')!r}")
        print(json.dumps({k: v for k, v in entry.items() if not k.startswith("__")}, indent=1, sort_keys=True))
    return problems


def main():
    command = sys.argv[1]
    if command == "request":
        reply, seconds = request(sys.argv[2], sys.argv[3])
        print(reply)
        print(f"{seconds:.6f}")
    elif command == "denied":
        try:
            request(sys.argv[2], "{}")
        except PermissionError as error:
            sys.exit(0 if error.errno == errno.EACCES else 1)
        sys.exit(1)
    elif command == "load":
        print(json.dumps(load(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5])))
    elif command == "journal":
        problems = check_journal(sys.argv[2], sys.argv[3])
        for problem in problems:
            print("journal:", problem, file=sys.stderr)
        sys.exit(1 if problems else 0)
    else:
        sys.exit(f"unknown command {command}")


if __name__ == "__main__":
    main()
