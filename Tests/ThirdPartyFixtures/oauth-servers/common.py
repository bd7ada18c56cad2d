"""What every matrix server shares: its command line, a socket on 127.0.0.1 with a free port, the port file
the Swift fixture waits for, and the lifetime after which a server exits by itself if its test died."""

import argparse
import os
import signal
import socket
import threading


def arguments(description):
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--config", choices=["quickstart", "careful"], required=True)
    parser.add_argument("--state", required=True, help="a private directory for the server's database")
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--client-id", required=True)
    parser.add_argument("--client-secret", required=True)
    parser.add_argument("--second-client-id", help="a second confidential client, with the first one's redirect URIs and scopes")
    parser.add_argument("--second-client-secret")
    parser.add_argument("--redirect-uri", action="append", required=True)
    parser.add_argument("--scope", action="append", required=True)
    parser.add_argument("--username", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--lifetime", type=int, default=300)
    return parser.parse_args()


def clients(args):
    """Every registered client as (client_id, client_secret): the first, and the second when given."""
    second = [(args.second_client_id, args.second_client_secret)] if args.second_client_id else []
    return [(args.client_id, args.client_secret)] + second


def listening_socket():
    """A socket listening on 127.0.0.1 on a port the kernel chose."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    return sock


def announce(port, port_file):
    """Writes the port once the server listens (a rename, so that the fixture never reads half a file)."""
    partial = port_file + ".partial"
    with open(partial, "w") as handle:
        handle.write(f"{port}\n")
    os.rename(partial, port_file)


def exit_after(seconds):
    """Ends the process after `seconds` even if the test that started it is gone."""
    timer = threading.Timer(seconds, lambda: os.kill(os.getpid(), signal.SIGKILL))
    timer.daemon = True
    timer.start()
