"""Independent OAuth 2.0 clients against appflipd's embedded authorization server.

Run with the venv of Tests/ThirdPartyFixtures/oauth-clients/setup.sh (authlib, requests-oauthlib, oauthlib, pinned). Input is
one JSON object on stdin, output one JSON object on stdout. Neither the output nor stderr ever holds a code,
token, verifier or secret: only statuses, error values, booleans and token shapes.

  interop.py authorize   {"base", "clientID", "redirectURI", "stateFile"}
      Builds one authorization URL with authlib and one with requests-oauthlib, both with PKCE S256, and
      keeps their verifiers and states in stateFile (the caller's private temporary file).
      Out: {"authlib": URL, "oauthlib": URL}
  interop.py run         {"base", "clientID", "clientSecret", "redirectURI", "appFlipRedirectURI", "stateFile",
                          "authlibCallback", "oauthlibCallback", "flipCodes": [CODE, CODE], "rotation"}
      Validates the RFC 8414 metadata with authlib, then with each library: exchanges the PKCE code (from the
      callback URL the authorization server redirected to) and an App Flip code (obtained through appflipd),
      opens /userinfo, refreshes, checks the previous refresh token by the rotation policy, revokes the
      refresh token (RFC 7009), and checks that the refresh token gets invalid_grant and the access tokens
      no longer open /userinfo.
"""

import json
import os
import sys
from urllib.parse import parse_qsl, urlsplit

# The embedded server is plain HTTP on loopback; oauthlib refuses http unless told.
os.environ.setdefault("OAUTHLIB_INSECURE_TRANSPORT", "1")

import requests  # noqa: E402
from authlib.common.security import generate_token  # noqa: E402
from authlib.integrations.requests_client import OAuth2Session as AuthlibSession  # noqa: E402
from authlib.oauth2.rfc8414 import AuthorizationServerMetadata  # noqa: E402
from oauthlib.oauth2 import WebApplicationClient  # noqa: E402
from requests_oauthlib import OAuth2Session as OAuthlibSession  # noqa: E402

TIMEOUT = 10


def error_of(response):
    try:
        return response.json().get("error")
    except ValueError:
        return None


def shape(token):
    """What may be shown of a token response."""
    return {
        "tokenType": token.get("token_type"),
        "expiresIn": token.get("expires_in"),
        "scope": token.get("scope"),
        "accessOpaque": "access_token" in token and token["access_token"].count(".") != 2,
        "refreshIssued": "refresh_token" in token,
    }


def failure(exception):
    """An exception, in words that cannot carry a secret: its type and the OAuth error if any."""
    return {"exception": type(exception).__name__, "error": getattr(exception, "error", None)}


def userinfo(url, access_token):
    return requests.get(url, headers={"Authorization": f"Bearer {access_token}"}, timeout=TIMEOUT).status_code


def raw_refresh(metadata, client_id, client_secret, refresh_token):
    response = requests.post(
        metadata["token_endpoint"],
        data={"grant_type": "refresh_token", "refresh_token": refresh_token},
        auth=(client_id, client_secret),
        timeout=TIMEOUT,
    )
    return response.status_code, error_of(response)


def lifecycle(name, metadata, inputs, refresh, revoke, exchanges):
    """The common checks for one library. `exchanges` are (label, callable → token) pairs."""
    result = {"library": name}
    tokens = []
    for label, exchange in exchanges:
        try:
            token = exchange()
            result[label] = shape(token)
            tokens.append(token)
        except Exception as exception:  # noqa: BLE001
            result[label] = failure(exception)
    if not tokens:
        return result
    first = tokens[0]
    result["userinfoBefore"] = userinfo(metadata["userinfo_endpoint"], first["access_token"])
    try:
        refreshed = refresh(first["refresh_token"])
        result["refresh"] = shape(refreshed)
        result["refreshRotated"] = refreshed.get("refresh_token") != first["refresh_token"]
        result["newAccessToken"] = refreshed["access_token"] != first["access_token"]
    except Exception as exception:  # noqa: BLE001
        result["refresh"] = failure(exception)
        return result
    # The previous refresh token, presented again before the new one is used: grace and off accept it.
    status, error = raw_refresh(metadata, inputs["clientID"], inputs["clientSecret"], first["refresh_token"])
    result["previousRefresh"] = {"status": status, "error": error}
    # Revocation on the other grant, untouched so far whatever the rotation policy did to the first.
    if len(tokens) < 2:
        return result
    current = refresh(tokens[1]["refresh_token"])
    result["userinfoBeforeRevoke"] = userinfo(metadata["userinfo_endpoint"], current["access_token"])
    revoke_status = revoke(current["refresh_token"])
    result["revokeStatus"] = revoke_status
    status, error = raw_refresh(metadata, inputs["clientID"], inputs["clientSecret"], current["refresh_token"])
    result["refreshAfterRevoke"] = {"status": status, "error": error}
    result["userinfoAfterRevoke"] = userinfo(metadata["userinfo_endpoint"], current["access_token"])
    result["unknownTokenRevokeStatus"] = revoke("not-a-token-" + generate_token(8))
    return result


def run_authlib(metadata, inputs, state):
    session = AuthlibSession(
        inputs["clientID"],
        inputs["clientSecret"],
        scope="profile",
        redirect_uri=inputs["redirectURI"],
        code_challenge_method="S256",
        token_endpoint_auth_method="client_secret_basic",
        state=state["authlibState"],
    )

    def pkce():
        return session.fetch_token(
            metadata["token_endpoint"],
            authorization_response=inputs["authlibCallback"],
            code_verifier=state["authlibVerifier"],
            timeout=TIMEOUT,
        )

    def flip():
        flip_session = AuthlibSession(
            inputs["clientID"], inputs["clientSecret"], redirect_uri=inputs["appFlipRedirectURI"],
            token_endpoint_auth_method="client_secret_post",
        )
        return flip_session.fetch_token(metadata["token_endpoint"], code=inputs["flipCodes"][0], timeout=TIMEOUT)

    def refresh(refresh_token):
        return session.refresh_token(metadata["token_endpoint"], refresh_token=refresh_token, timeout=TIMEOUT)

    def revoke(token):
        return session.revoke_token(
            metadata["revocation_endpoint"], token=token, token_type_hint="refresh_token", timeout=TIMEOUT
        ).status_code

    return lifecycle("authlib", metadata, inputs, refresh, revoke, [("pkceExchange", pkce), ("flipExchange", flip)])


def run_oauthlib(metadata, inputs, state):
    session = OAuthlibSession(
        inputs["clientID"], redirect_uri=inputs["redirectURI"], scope=["profile"], pkce="S256",
        state=state["oauthlibState"],
    )
    session._code_verifier = state["oauthlibVerifier"]  # the verifier of the URL built in `authorize`

    def pkce():
        return session.fetch_token(
            metadata["token_endpoint"],
            authorization_response=inputs["oauthlibCallback"],
            client_secret=inputs["clientSecret"],
            include_client_id=True,
            timeout=TIMEOUT,
        )

    def flip():
        flip_session = OAuthlibSession(inputs["clientID"], redirect_uri=inputs["appFlipRedirectURI"], scope=["profile"])
        return flip_session.fetch_token(
            metadata["token_endpoint"], code=inputs["flipCodes"][1], client_secret=inputs["clientSecret"],
            include_client_id=True, timeout=TIMEOUT,
        )

    def refresh(refresh_token):
        return session.refresh_token(
            metadata["token_endpoint"], refresh_token=refresh_token,
            client_id=inputs["clientID"], client_secret=inputs["clientSecret"], timeout=TIMEOUT,
        )

    def revoke(token):
        # requests-oauthlib has no revocation; oauthlib prepares the RFC 7009 request.
        url, headers, body = WebApplicationClient(inputs["clientID"]).prepare_token_revocation_request(
            metadata["revocation_endpoint"], token, token_type_hint="refresh_token"
        )
        body += "&" + requests.models.RequestEncodingMixin._encode_params(
            {"client_id": inputs["clientID"], "client_secret": inputs["clientSecret"]}
        )
        return requests.post(url, data=body, headers=headers, timeout=TIMEOUT).status_code

    return lifecycle("oauthlib", metadata, inputs, refresh, revoke, [("pkceExchange", pkce), ("flipExchange", flip)])


def authorize(inputs):
    base = inputs["base"]
    authlib_verifier = generate_token(64)
    authlib_session = AuthlibSession(
        inputs["clientID"], scope="profile", redirect_uri=inputs["redirectURI"], code_challenge_method="S256"
    )
    authlib_url, authlib_state = authlib_session.create_authorization_url(
        base + "/authorize", code_verifier=authlib_verifier
    )
    oauthlib_session = OAuthlibSession(
        inputs["clientID"], redirect_uri=inputs["redirectURI"], scope=["profile"], pkce="S256"
    )
    oauthlib_url, oauthlib_state = oauthlib_session.authorization_url(base + "/authorize")
    fd = os.open(inputs["stateFile"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as file:
        json.dump(
            {
                "authlibVerifier": authlib_verifier, "authlibState": authlib_state,
                "oauthlibVerifier": oauthlib_session._code_verifier, "oauthlibState": oauthlib_state,
            },
            file,
        )
    return {"authlib": authlib_url, "oauthlib": oauthlib_url}


def run(inputs):
    with open(inputs["stateFile"]) as file:
        state = json.load(file)
    response = requests.get(inputs["base"] + "/.well-known/oauth-authorization-server", timeout=TIMEOUT)
    metadata = response.json()
    result = {"metadataStatus": response.status_code, "metadataContentType": response.headers.get("Content-Type")}
    try:
        AuthorizationServerMetadata(metadata).validate()
        result["metadataValid"] = True
    except ValueError as exception:
        result["metadataValid"] = False
        result["metadataError"] = str(exception)
    result["issuerMatches"] = metadata.get("issuer") == inputs["base"]
    # PKCE is enforced: authlib's code with a wrong verifier is refused (and not consumed by the refusal).
    code = dict(parse_qsl(urlsplit(inputs["authlibCallback"]).query)).get("code", "")
    wrong = requests.post(
        metadata["token_endpoint"],
        data={
            "grant_type": "authorization_code", "code": code, "redirect_uri": inputs["redirectURI"],
            "code_verifier": generate_token(64),
        },
        auth=(inputs["clientID"], inputs["clientSecret"]),
        timeout=TIMEOUT,
    )
    result["pkceWrongVerifier"] = {"status": wrong.status_code, "error": error_of(wrong)}
    result["authlib"] = run_authlib(metadata, inputs, state)
    result["oauthlib"] = run_oauthlib(metadata, inputs, state)
    return result


def main():
    inputs = json.load(sys.stdin)
    phase = sys.argv[1] if len(sys.argv) > 1 else ""
    if phase == "authorize":
        output = authorize(inputs)
    elif phase == "run":
        output = run(inputs)
    else:
        print("usage: interop.py authorize|run < input.json", file=sys.stderr)
        sys.exit(64)
    json.dump(output, sys.stdout)


if __name__ == "__main__":
    main()
