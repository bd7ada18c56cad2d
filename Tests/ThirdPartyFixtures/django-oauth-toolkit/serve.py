"""Provision and serve django-oauth-toolkit on 127.0.0.1 for appflip's interop test.

    python serve.py --state DIR --client-id ID --client-secret SECRET --username U --password P \
        --redirect-uri URI [--redirect-uri URI ...] [--lifetime SECONDS] [--port-file FILE] [--defaults]

Creates a fresh SQLite database in DIR, a user, and a confidential authorization-code client with the
given redirect URIs (skip_authorization, so a signed-in user gets a code without a consent page). Binds an
ephemeral port, prints "LISTENING <port>" on stdout, and serves until killed or until --lifetime seconds
have passed, so that a crashed test never leaves it running for long. --defaults keeps django-oauth-toolkit's
own settings (PKCE required, 60-second codes) instead of the interop tests' (no PKCE, 10-minute codes).
"""
import argparse
import os
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--state", required=True)
    parser.add_argument("--client-id", required=True)
    parser.add_argument("--client-secret", required=True)
    parser.add_argument("--second-client-id", help="a second confidential client with the same redirect URIs")
    parser.add_argument("--second-client-secret")
    parser.add_argument("--username", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--redirect-uri", action="append", required=True)
    parser.add_argument("--lifetime", type=float, default=300)
    parser.add_argument("--port-file", help="also write the port here, atomically, once listening")
    parser.add_argument("--defaults", action="store_true", help="django-oauth-toolkit's own OAUTH2_PROVIDER defaults")
    args = parser.parse_args()

    os.makedirs(args.state, exist_ok=True)
    os.environ["APPFLIP_DJANGO_STATE"] = args.state
    os.environ["DJANGO_SETTINGS_MODULE"] = "interop.settings"
    os.environ["APPFLIP_DJANGO_DEFAULTS"] = "1" if args.defaults else "0"

    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler
    from django.core.wsgi import get_wsgi_application
    from oauth2_provider.models import Application

    call_command("migrate", verbosity=0, interactive=False)
    user = get_user_model().objects.create_user(args.username, f"{args.username}@example.com", args.password)
    second = [("another-client", args.second_client_id, args.second_client_secret)] if args.second_client_id else []
    for name, client_id, client_secret in [("appflip-partner", args.client_id, args.client_secret)] + second:
        Application.objects.create(
            name=name,
            client_id=client_id,
            client_secret=client_secret,
            user=user,
            client_type=Application.CLIENT_CONFIDENTIAL,
            authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
            redirect_uris=" ".join(args.redirect_uri),
            skip_authorization=True,
        )

    class QuietHandler(WSGIRequestHandler):
        def log_message(self, format, *args):  # request lines carry codes in Location-bound queries
            pass

    server = ThreadedWSGIServer(("127.0.0.1", 0), QuietHandler)
    server.set_app(get_wsgi_application())
    deadline = threading.Timer(args.lifetime, server.shutdown)
    deadline.daemon = True
    deadline.start()
    port = server.server_address[1]
    if args.port_file:
        with open(args.port_file + ".tmp", "w") as f:
            f.write(f"{port}\n")
        os.replace(args.port_file + ".tmp", args.port_file)
    print(f"LISTENING {port}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
