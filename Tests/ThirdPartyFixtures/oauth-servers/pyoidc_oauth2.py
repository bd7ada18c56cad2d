"""pyoidc's OAuth 2.0 Provider (oic.oauth2.provider, its own core) as a WSGI application, for the audit's
real-server matrix.

quickstart: as pyoidc's documentation and its provider tests set it up: Provider with create_session_db's
in-memory SessionDB (opaque tokens, 10-minute codes), a client database dict with the client's
redirect_uris and no token_endpoint_auth_method (client_secret_basic, verify_client's default), an
AuthnBroker holding one UserAuthnMethod that reads pyoidc's own signed cookie, and Implicit authorization
(the consent pyoidc's examples give without a page). oic.oauth2.provider answers a refresh with
unsupported_grant_type: refreshing is oic.extension's.

careful: the same provider as a partner ships it for Google: client_secret_post (which Google sends) and
Basic both accepted (verify_client accepts exactly one method per client), expires_in in the token response,
a replayed code revoking what it issued, refresh tokens honoured through SessionDB.refresh_token, and RFC 6749
§5.2's error codes at the token endpoint (pyoidc answers
unauthorized_client on HTTP 401 for a bad code, a mismatching redirect_uri or failed client
authentication)."""

import json
import os
import time
from urllib.parse import parse_qs

from oic.oauth2.message import AccessTokenResponse, TokenErrorResponse
from oic.oauth2.provider import Provider
from oic.utils.authn.authn_context import AuthnBroker
from oic.utils.authn.client import get_client_id, verify_client
from oic.utils.authn.user import UserAuthnMethod
from oic.utils.authz import Implicit
from oic.utils.http_util import BadRequest, Response, SeeOther
from oic.utils.sdb import create_session_db
from werkzeug.serving import make_server

import common

args = common.arguments(__doc__)
careful = args.config == "careful"


class CookieLogin(UserAuthnMethod):
    """pyoidc's UserAuthnMethod: a signed-in user is pyoidc's own cookie; anyone else goes to /login."""

    def __call__(self, **kwargs):
        return SeeOther("/login")


class CarefulProvider(Provider):
    def code_grant_type(self, areq):
        info = self.sdb[areq["code"]]
        if info.get("code_used"):
            # RFC 6749 §4.1.2: a replayed code SHOULD revoke the tokens issued from it.
            self.sdb.revoke_token(info["access_token"])
            self.sdb.revoke_refresh_token(info["refresh_token"])
            return error("invalid_grant", 400, "Access grant used")
        response = super().code_grant_type(areq)
        # RFC 6749 §5.1 recommends expires_in; Google's validation requires it. SessionDB's tokens last 3600 s.
        response.message = json.dumps(dict(json.loads(response.message), expires_in=3600))
        return response

    def refresh_token_grant_type(self, areq):
        try:
            info = self.sdb.refresh_token(areq["refresh_token"], areq["client_id"])
        except Exception:
            return error("invalid_grant", 400)
        response = AccessTokenResponse(access_token=info["access_token"], token_type="Bearer", expires_in=3600)
        return Response(response.to_json(), content="application/json", headers=[("Cache-Control", "no-store"), ("Pragma", "no-cache")])


def client_authn(provider, areq, authn):
    """verify_client accepts one method per client; Google's client may use either (RFC 6749 §2.3.1)."""
    if authn:
        return get_client_id(provider.cdb, areq, authn)
    return verify_client(provider, areq, authn)


def error(code, status, description=None):
    body = TokenErrorResponse(error=code, **({"error_description": description} if description else {}))
    headers = [("Cache-Control", "no-store")]
    if status == 401:
        headers.append(("WWW-Authenticate", 'Basic realm="oauth"'))
    return Response(body.to_json(), content="application/json", status_code=status, headers=headers)


base = "http://127.0.0.1"
cdb = {}
for client_id, client_secret in common.clients(args):
    cdb[client_id] = {
        "client_secret": client_secret,
        "redirect_uris": [(uri, None) for uri in args.redirect_uri],
        "client_salt": "salted",
        "response_types": ["code"],
    }
    if careful:
        cdb[client_id]["token_endpoint_auth_method"] = "client_secret_post"
sdb = create_session_db(base, os.urandom(16).hex(), os.urandom(16).hex())
broker = AuthnBroker()
login_method = CookieLogin(None)  # its server is the provider, which needs the broker first
broker.add("UNDEFINED", login_method)
provider = (CarefulProvider if careful else Provider)(
    "pyoidc", sdb, cdb, broker, Implicit(), client_authn if careful else verify_client, symkey=os.urandom(16), baseurl=base
)
login_method.init_srv(provider)


def careful_token_errors(response, body):
    """RFC 6749 §5.2: a bad code or redirect_uri is invalid_grant on 400; failed client authentication invalid_client."""
    if response.status_code != "401 Unauthorized" and not str(response.status_code).startswith("401"):
        return response
    message = json.loads(response.message)
    description = message.get("error_description", "")
    if description in ("Invalid code.", "Redirect_uris do not match.", "Access grant used", "State values do not match."):
        return error("invalid_grant", 400, description)
    return error("invalid_client", 401, description)


def application(environ, start_response):
    path, method = environ["PATH_INFO"], environ["REQUEST_METHOD"]
    length = int(environ.get("CONTENT_LENGTH") or 0)
    body = environ["wsgi.input"].read(length).decode() if length else ""
    if path == "/login" and method == "POST":
        form = {key: values[0] for key, values in parse_qs(body).items()}
        if form.get("username") != args.username or form.get("password") != args.password:
            response = BadRequest("wrong username or password")
        else:
            response = SeeOther("/", headers=[login_method.create_cookie(args.username, "upm")])
    elif path == "/oauth/authorize" and method == "GET":
        response = provider.authorization_endpoint(request=environ.get("QUERY_STRING", ""), cookie=environ.get("HTTP_COOKIE"))
    elif path == "/oauth/token" and method == "POST":
        response = provider.token_endpoint(request=body, authn=environ.get("HTTP_AUTHORIZATION", ""))
        if careful:
            response = careful_token_errors(response, body)
    elif path == "/api/me" and method == "GET":
        scheme, _, token = environ.get("HTTP_AUTHORIZATION", "").partition(" ")
        try:
            valid = scheme.lower() == "bearer" and bool(token) and sdb.is_valid(token)
        except Exception:
            valid = False
        if valid:
            response = Response(json.dumps({"sub": sdb[sdb.access_token.get_key(token)]["authn_event"]}), content="application/json")
        else:
            challenge = 'Bearer realm="api"' + (', error="invalid_token"' if token else "")
            response = Response('{"error": "invalid_token"}', content="application/json", status_code=401, headers=[("WWW-Authenticate", challenge)])
    else:
        response = BadRequest("no such endpoint")
    return response(environ, start_response)


common.exit_after(args.lifetime)
sock = common.listening_socket()
server = make_server("127.0.0.1", sock.getsockname()[1], application, threaded=True, fd=sock.fileno())
common.announce(server.port, args.port_file)
server.serve_forever()
