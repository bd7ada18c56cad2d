"""Authlib's Flask OAuth 2.0 server (authlib.integrations.flask_oauth2) for the audit's real-server matrix.

quickstart: as Authlib's documentation sets it up ("Flask OAuth 2.0 Server", and its example-oauth2-server):
the SQLAlchemy mixins, the client registered with its default token_endpoint_auth_method (client_secret_basic),
AuthorizationCodeGrant and RefreshTokenGrant as their documentation writes them (no new refresh token by
default), the SQLAlchemy revocation endpoint and bearer validator. The consent page's "yes" is
given on GET: the audit signs in with a cookie and reads the redirect, as the App Flip partner app consents.

careful: the same library as a partner ships it for Google: client_secret_post and Basic at every endpoint,
PKCE only when a challenge is sent, a refresh token that stays valid across refreshes, a replayed code revoking
what it issued, and a revoked refresh token taking its grant's access tokens with it (RFC 7009 §2.1)."""

import os
import time

from authlib.integrations.flask_oauth2 import AuthorizationServer, ResourceProtector, current_token
from authlib.integrations.sqla_oauth2 import (
    OAuth2AuthorizationCodeMixin,
    OAuth2ClientMixin,
    OAuth2TokenMixin,
    create_bearer_token_validator,
    create_query_client_func,
    create_revocation_endpoint,
    create_save_token_func,
)
from authlib.oauth2.rfc6749 import grants
from authlib.oauth2.rfc7636 import CodeChallenge
from flask import Flask, jsonify, redirect, request, session
from flask_sqlalchemy import SQLAlchemy
from werkzeug.serving import make_server

import common

args = common.arguments(__doc__)
careful = args.config == "careful"
BOTH = ["client_secret_basic", "client_secret_post"]

app = Flask(__name__)
app.config["SECRET_KEY"] = os.urandom(32)
# The example application's setting: without it no refresh token is ever issued.
app.config["OAUTH2_REFRESH_TOKEN_GENERATOR"] = True
app.config["SQLALCHEMY_DATABASE_URI"] = "sqlite:///" + os.path.join(args.state, "authlib.sqlite")
db = SQLAlchemy(app)


class User(db.Model):
    id = db.Column(db.Integer, primary_key=True)
    username = db.Column(db.String(40), unique=True)
    password = db.Column(db.String(80))

    def get_user_id(self):
        return self.id


class OAuth2Client(db.Model, OAuth2ClientMixin):
    id = db.Column(db.Integer, primary_key=True)
    user_id = db.Column(db.Integer, db.ForeignKey("user.id", ondelete="CASCADE"))

    def check_endpoint_auth_method(self, method, endpoint):
        # careful: Google sends client_secret_post unless told to use Basic; accept both, as RFC 6749 §2.3.1 allows.
        if careful:
            return method in BOTH
        return super().check_endpoint_auth_method(method, endpoint)


class OAuth2AuthorizationCode(db.Model, OAuth2AuthorizationCodeMixin):
    id = db.Column(db.Integer, primary_key=True)
    user_id = db.Column(db.Integer, db.ForeignKey("user.id", ondelete="CASCADE"))
    used = db.Column(db.Boolean, default=False)


class OAuth2Token(db.Model, OAuth2TokenMixin):
    id = db.Column(db.Integer, primary_key=True)
    user_id = db.Column(db.Integer, db.ForeignKey("user.id", ondelete="CASCADE"))
    grant_code = db.Column(db.String(120))
    user = db.relationship("User")


class AuthorizationCodeGrant(grants.AuthorizationCodeGrant):
    if careful:
        TOKEN_ENDPOINT_AUTH_METHODS = BOTH

    def save_authorization_code(self, code, request):
        item = OAuth2AuthorizationCode(
            code=code,
            client_id=request.client.client_id,
            redirect_uri=request.payload.redirect_uri,
            scope=request.scope,
            user_id=request.user.id,
            code_challenge=request.payload.data.get("code_challenge"),
            code_challenge_method=request.payload.data.get("code_challenge_method"),
        )
        db.session.add(item)
        db.session.commit()
        return item

    def query_authorization_code(self, code, client):
        item = OAuth2AuthorizationCode.query.filter_by(code=code, client_id=client.client_id).first()
        if item and careful and item.used:
            # RFC 6749 §4.1.2: a replayed code SHOULD revoke the tokens issued from it.
            now = int(time.time())
            for token in OAuth2Token.query.filter_by(grant_code=code).all():
                token.access_token_revoked_at = token.refresh_token_revoked_at = now
            db.session.commit()
            return None
        if item and not item.is_expired():
            return item

    def delete_authorization_code(self, authorization_code):
        if careful:
            authorization_code.used = True
        else:
            db.session.delete(authorization_code)
        db.session.commit()

    def authenticate_user(self, authorization_code):
        return db.session.get(User, authorization_code.user_id)


class RefreshTokenGrant(grants.RefreshTokenGrant):
    if careful:
        TOKEN_ENDPOINT_AUTH_METHODS = BOTH

    def authenticate_refresh_token(self, refresh_token):
        token = OAuth2Token.query.filter_by(refresh_token=refresh_token).first()
        # The documentation's `not token.refresh_token_revoked`, with the 1.9 mixin's column.
        if token and not token.refresh_token_revoked_at:
            return token

    def authenticate_user(self, credential):
        return db.session.get(User, credential.user_id)

    def revoke_old_credential(self, credential):
        if careful:
            # No new refresh token is issued, so the presented one must stay valid (RFC 6749 §6).
            return
        # The documentation's code: `revoked` is no column of the 1.9 mixin, so nothing is revoked.
        credential.revoked = True
        db.session.add(credential)
        db.session.commit()


def save_token(token, request):
    create_save_token_func(db.session, OAuth2Token)(token, request)
    if careful:
        # Tie every token row to the grant it came from, so that revocation and replay reach all of them.
        row = OAuth2Token.query.filter_by(access_token=token["access_token"]).first()
        code = request.payload.data.get("code")
        if code is None and getattr(request, "refresh_token", None) is not None:
            code = request.refresh_token.grant_code
        row.grant_code = code
        db.session.commit()


authorization = AuthorizationServer(app, query_client=create_query_client_func(db.session, OAuth2Client), save_token=save_token)
authorization.register_grant(AuthorizationCodeGrant, [CodeChallenge(required=False)] if careful else [])
authorization.register_grant(RefreshTokenGrant)

Revocation = create_revocation_endpoint(db.session, OAuth2Token)
if careful:

    class Revocation(Revocation):
        CLIENT_AUTH_METHODS = BOTH

        def revoke_token(self, token, request):
            super().revoke_token(token, request)
            if token.grant_code:
                now = int(time.time())
                for row in OAuth2Token.query.filter_by(grant_code=token.grant_code).all():
                    row.access_token_revoked_at = row.refresh_token_revoked_at = now
                db.session.commit()


authorization.register_endpoint(Revocation)
require_oauth = ResourceProtector()
require_oauth.register_token_validator(create_bearer_token_validator(db.session, OAuth2Token)())


def current_user():
    if "id" in session:
        return db.session.get(User, session["id"])
    return None


@app.route("/login", methods=["POST"])
def login():
    user = User.query.filter_by(username=request.form.get("username")).first()
    if user is None or user.password != request.form.get("password"):
        return "wrong username or password", 401
    session["id"] = user.id
    return redirect("/")


@app.route("/oauth/authorize", methods=["GET"])
def authorize():
    user = current_user()
    if not user:
        return redirect("/login?next=" + request.full_path)
    return authorization.create_authorization_response(grant_user=user)


@app.route("/oauth/token", methods=["POST"])
def issue_token():
    return authorization.create_token_response()


@app.route("/oauth/revoke", methods=["POST"])
def revoke_token():
    return authorization.create_endpoint_response("revocation")


@app.route("/api/me")
@require_oauth("profile")
def api_me():
    return jsonify(id=current_token.user.id, username=current_token.user.username)


with app.app_context():
    db.create_all()
    user = User(username=args.username, password=args.password)
    db.session.add(user)
    db.session.commit()
    for client_id, client_secret in common.clients(args):
        client = OAuth2Client(client_id=client_id, client_secret=client_secret, user_id=user.id, client_id_issued_at=int(time.time()))
        metadata = {
            "client_name": "Google" if client_id == args.client_id else "another client",
            "redirect_uris": args.redirect_uri,
            "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"],
            "scope": " ".join(args.scope),
        }
        if careful:
            metadata["token_endpoint_auth_method"] = "client_secret_post"
        client.set_client_metadata(metadata)
        db.session.add(client)
    db.session.commit()

common.exit_after(args.lifetime)
sock = common.listening_socket()
server = make_server("127.0.0.1", sock.getsockname()[1], app, threaded=True, fd=sock.fileno())
common.announce(server.port, args.port_file)
server.serve_forever()
