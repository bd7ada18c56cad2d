"""A reverse proxy on 127.0.0.1 that forwards every request to one upstream server unchanged and writes down
every secret that crossed it, so that a test can search an audit's outputs for each of them:
    python recording_proxy.py --upstream http://127.0.0.1:PORT --port-file FILE --secrets FILE --lifetime SECONDS

Secrets, one a line in the --secrets file (rewritten after each exchange, mode 0600): the values of the form
fields and query parameters code, refresh_token, access_token, token, client_secret, password, id_token; the
credentials of Authorization (a Bearer token; Basic's id:secret decoded, and the secret alone), of Cookie and
Set-Cookie (each cookie's value); the members access_token, refresh_token, id_token and code of a JSON answer;
and the code in a Location's query. The proxy exits by itself after --lifetime seconds.
"""
import argparse
import base64
import http.client
import http.server
import json
import os
import threading
import urllib.parse

parser = argparse.ArgumentParser()
parser.add_argument("--upstream", required=True)
parser.add_argument("--port-file", required=True)
parser.add_argument("--secrets", required=True)
parser.add_argument("--lifetime", type=int, default=300)
args = parser.parse_args()
upstream = urllib.parse.urlsplit(args.upstream)
NAMES = {"code", "refresh_token", "access_token", "token", "client_secret", "password", "id_token"}
HOP = {"connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade", "proxy-connection"}
found = set()
lock = threading.Lock()


def note(value):
    if value:
        with lock:
            found.add(value)


def note_pairs(text):
    for name, value in urllib.parse.parse_qsl(text, keep_blank_values=True):
        if name in NAMES:
            note(value)


def note_headers(headers):
    for name, value in headers:
        lower = name.lower()
        if lower == "authorization":
            scheme, _, credential = value.partition(" ")
            note(credential)
            if scheme.lower() == "basic":
                try:
                    decoded = base64.b64decode(credential).decode()
                    note(urllib.parse.unquote(decoded.partition(":")[2]))
                except Exception:
                    pass
        elif lower in ("cookie", "set-cookie"):
            for part in value.split(";") if lower == "cookie" else value.split(";")[:1]:
                note(part.partition("=")[2].strip())
        elif lower == "location":
            note_pairs(urllib.parse.urlsplit(value).query)


def save():
    # Under the lock as a whole: requests relayed at once share the temporary file, and one thread's replace
    # would take it from under another's.
    with lock:
        lines = "".join(value + "\n" for value in sorted(found))
        temporary = args.secrets + ".tmp"
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w") as file:
            file.write(lines)
        os.replace(temporary, args.secrets)


class Relay(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *_):
        pass

    def relay(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        note_pairs(urllib.parse.urlsplit(self.path).query)
        note_pairs(body.decode("utf-8", "replace"))
        note_headers(self.headers.items())
        connection = http.client.HTTPConnection(upstream.hostname, upstream.port, timeout=30)
        headers = {name: value for name, value in self.headers.items() if name.lower() not in HOP and name.lower() != "host"}
        connection.request(self.command, self.path, body=body or None, headers=headers)
        answer = connection.getresponse()
        data = answer.read()
        note_headers(answer.getheaders())
        try:
            document = json.loads(data)
            if isinstance(document, dict):
                for name in ("access_token", "refresh_token", "id_token", "code"):
                    if isinstance(document.get(name), str):
                        note(document[name])
        except ValueError:
            pass
        save()
        self.send_response_only(answer.status, answer.reason)
        for name, value in answer.getheaders():
            if name.lower() not in HOP and name.lower() != "content-length":
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        connection.close()

    do_GET = do_POST = do_HEAD = do_PUT = do_DELETE = relay


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Relay)
threading.Timer(args.lifetime, server.shutdown).start()
save()
with open(args.port_file + ".tmp", "w") as file:
    file.write(str(server.server_address[1]))
os.replace(args.port_file + ".tmp", args.port_file)
server.serve_forever()
