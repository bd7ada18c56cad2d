"""aioauth's AuthorizationServer (its own core, asyncio) on Starlette for the audit's real-server matrix.

quickstart: as aioauth's documentation points to it (the README's "project example", examples/shared and
fastapi_example.py): its storage's queries kept as written, in memory instead of SQLModel — a code found by
its client_id alone (one row expected, so a second outstanding code is an error), tokens of 300 s with
refresh tokens of 900 s, a revoked token deleted — and aioauth's own grant types, which rotate the refresh
token on every refresh. The example's login page signs the user into a Starlette session; its consent page's
"Approve" is given on GET, as the App Flip partner app consents.

careful: the same library as a partner ships it for Google: a code found by its own value and bound to its
redirect_uri (aioauth's core does not compare them), a replayed code revoking what it issued, a rotated-out
refresh token kept until its successor is used, RFC 7009's 200 for a revocation, and a revoked refresh token
taking its grant's access tokens with it."""

import asyncio
import logging
import json
import secrets
import time
from dataclasses import replace
from http import HTTPStatus

import uvicorn
from aioauth.collections import HTTPHeaderDict
from aioauth.config import Settings
from aioauth.models import AuthorizationCode, Client, Token
from aioauth.requests import Post, Query
from aioauth.requests import Request as OAuthRequest
from aioauth.server import AuthorizationServer
from aioauth.storage import BaseStorage
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.responses import JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

import common

args = common.arguments(__doc__)
careful = args.config == "careful"
settings = Settings(INSECURE_TRANSPORT=True)  # 127.0.0.1 only; the example reads it from its environment


class Storage(BaseStorage):
    def __init__(self):
        self.codes = []  # dicts: code (AuthorizationCode), used, user
        self.tokens = []  # dicts: token, user, grant (the code it came from), predecessor (careful rotation)

    async def get_client(self, *, request, client_id, client_secret=None):
        known = dict(common.clients(args))
        if client_id not in known:
            return None
        if client_secret is not None and client_secret != known[client_id]:
            return None
        return Client(
            client_id=client_id,
            client_secret=known[client_id],
            grant_types=["authorization_code", "refresh_token"],
            response_types=["code"],
            redirect_uris=args.redirect_uri,
            scope=" ".join(args.scope),
        )

    async def create_authorization_code(self, *, request, client_id, scope, response_type, redirect_uri, code,
                                        code_challenge_method=None, code_challenge=None, nonce=None):
        item = AuthorizationCode(
            code=code, client_id=client_id, redirect_uri=redirect_uri, response_type=response_type, scope=scope,
            auth_time=int(time.time()), expires_in=300, code_challenge=code_challenge,
            code_challenge_method=code_challenge_method,
        )
        self.codes.append({"code": item, "used": False, "user": request.extra["user"]})
        return item

    async def get_authorization_code(self, *, request, client_id, code):
        if not careful:
            # The example's query: `select(AuthCodeTable).where(client_id == client_id)`, then one_or_none().
            rows = [row for row in self.codes if row["code"].client_id == client_id]
            if len(rows) > 1:
                raise LookupError("MultipleResultsFound: more than one authorization code for this client")
            return rows[0]["code"] if rows else None
        row = next((row for row in self.codes if row["code"].code == code and row["code"].client_id == client_id), None)
        if row is None:
            return None
        if row["used"]:
            # RFC 6749 §4.1.2: a replayed code SHOULD revoke the tokens issued from it.
            for entry in self.tokens:
                if entry["grant"] == code:
                    entry["token"] = replace(entry["token"], revoked=True)
            return None
        if row["code"].redirect_uri != request.post.redirect_uri:
            return None  # RFC 6749 §4.1.3: the redirect_uri must be identical to the authorization request's
        return row["code"]

    async def delete_authorization_code(self, *, request, client_id, code):
        if not careful:
            # The example's query again: the client's one code, whatever its value.
            rows = [row for row in self.codes if row["code"].client_id == client_id]
            self.codes.remove(rows[0])
            return
        for row in self.codes:
            if row["code"].code == code:
                row["used"] = True

    async def create_token(self, *, request, client_id, scope, access_token, refresh_token=None):
        lifetime, refresh_lifetime = (300, 900) if not careful else (settings.TOKEN_EXPIRES_IN, settings.REFRESH_TOKEN_EXPIRES_IN)
        code = request.post.code
        grant = code if code else request.extra.get("grant")
        user = request.extra.get("user") or next((row["user"] for row in self.codes if row["code"].code == code), None)
        token = Token(
            access_token=access_token, refresh_token=refresh_token, scope=scope, issued_at=int(time.time()),
            expires_in=lifetime, refresh_token_expires_in=refresh_lifetime, client_id=client_id,
        )
        self.tokens.append({"token": token, "user": user, "grant": grant, "predecessor": request.extra.get("predecessor")})
        return token

    def find(self, access_token=None, refresh_token=None):
        for entry in self.tokens:
            token = entry["token"]
            if (refresh_token and token.refresh_token == refresh_token) or (access_token and token.access_token == access_token):
                return entry
        return None

    async def get_token(self, *, request, client_id, token_type=None, access_token=None, refresh_token=None):
        entry = self.find(access_token if token_type != "refresh_token" else None, refresh_token if token_type == "refresh_token" else None)
        if entry is None and token_type is None:
            entry = self.find(access_token, refresh_token)
        if entry is None or entry["token"].client_id != client_id:
            return None
        if careful and request.post.grant_type == "refresh_token":
            request.extra.update(grant=entry["grant"], user=entry["user"], predecessor=entry)
            # The successor is in use: its predecessor is retired now (Google's rotation with grace).
            if entry.get("predecessor") is not None:
                entry["predecessor"]["token"] = replace(entry["predecessor"]["token"], revoked=True)
        elif request.post.grant_type == "refresh_token":
            request.extra.update(user=entry["user"])
        return entry["token"]

    async def revoke_token(self, *, request, client_id, refresh_token=None, token_type=None, access_token=None):
        entry = self.find(access_token, refresh_token)
        if entry is None:
            return
        if careful and entry["token"].client_id != client_id:
            return  # RFC 7009 §2.1: another client's token is not revoked
        if not careful:
            self.tokens.remove(entry)  # the example deletes the row
            return
        if request.post.grant_type == "refresh_token":
            return  # rotated out, but kept until its successor is used
        for other in self.tokens:
            if other["grant"] == entry["grant"]:
                other["token"] = replace(other["token"], revoked=True)

    async def get_user(self, request):
        return None


storage = Storage()
server = AuthorizationServer(storage)


async def to_oauth(request, user=None):
    form = await request.form() if request.method == "POST" else {}
    return OAuthRequest(
        headers=HTTPHeaderDict(**request.headers),
        method=request.method,
        post=Post(**{key: value for key, value in form.items() if key in Post.__dataclass_fields__}),
        query=Query(**{key: value for key, value in request.query_params.items() if key in Query.__dataclass_fields__}),
        settings=settings,
        url=str(request.url),
        extra={"user": user},
    )


def to_response(response):
    status, content, headers = response.status_code, response.content, dict(response.headers)
    if careful:
        if status == HTTPStatus.NO_CONTENT:
            status = HTTPStatus.OK  # RFC 7009 §2.2: a revocation is answered with 200
        if isinstance(content, dict) and "description" in content:
            # RFC 6749 §5.2 names the field error_description; aioauth writes description and an empty error_uri.
            description = content.pop("description")
            content.pop("error_uri", None)
            if description:
                content["error_description"] = description
        if "www-authenticate" in headers:
            # aioauth leaves the auth-params unquoted, which RFC 9110 §11.2 does not allow for a value with spaces.
            headers["www-authenticate"] = f'Basic realm="oauth", error="{content.get("error", "invalid_client")}"'
    return Response(content=json.dumps(content), headers=headers, status_code=status)


async def login(request):
    form = await request.form()
    if form.get("username") != args.username or form.get("password") != args.password:
        return PlainTextResponse("Invalid Username or Password", status_code=400)
    request.session["user"] = args.username
    return RedirectResponse("/", status_code=303)


async def authorize(request):
    user = request.session.get("user")
    if user is None:
        return RedirectResponse("/login")
    return to_response(await server.create_authorization_response(await to_oauth(request, user)))


async def token(request):
    return to_response(await server.create_token_response(await to_oauth(request)))


async def revoke(request):
    return to_response(await server.revoke_token(await to_oauth(request)))


async def me(request):
    scheme, _, value = request.headers.get("authorization", "").partition(" ")
    entry = storage.find(access_token=value) if scheme.lower() == "bearer" and value else None
    if entry is None or entry["token"].revoked or entry["token"].is_expired:
        challenge = 'Bearer realm="api"' + (', error="invalid_token"' if value else "")
        return JSONResponse({"error": "invalid_token"}, status_code=401, headers={"WWW-Authenticate": challenge})
    return JSONResponse({"username": entry["user"]})


app = Starlette(
    routes=[
        Route("/login", login, methods=["POST"]),
        Route("/oauth/authorize", authorize, methods=["GET"]),
        Route("/oauth/token", token, methods=["POST"]),
        Route("/oauth/revoke", revoke, methods=["POST"]),
        Route("/api/me", me, methods=["GET"]),
    ],
    middleware=[Middleware(SessionMiddleware, secret_key=secrets.token_hex(32))],
)

logging.basicConfig(level=logging.ERROR)  # aioauth logs a server_error's exception; the fixture shows stderr on failure
common.exit_after(args.lifetime)
sock = common.listening_socket()
common.announce(sock.getsockname()[1], args.port_file)
asyncio.run(uvicorn.Server(uvicorn.Config(app, log_level="warning")).serve(sockets=[sock]))
