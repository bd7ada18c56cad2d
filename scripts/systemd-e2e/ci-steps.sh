# Issue 39: the GitHub Action and the GitLab CI/CD component run as their runners would, against the package
# scripts/package/build made, under the shielded systemd. Sourced by package-steps.sh, whose package_steps
# calls ci_steps once the package is installed, its OAuth2 port moved to $oauth_port and a flip has linked.
# Each run installs the same package again (apt-get: already the newest version), starts the sockets and audits
# the demo partner; Tests/ThirdPartyFixtures/ci-tools/run_ci_step.py drives the steps (docs/ci-github.md, docs/ci-gitlab.md) and
# ci_run_check.py holds what the job shows. Uses systemd-e2e.sh's helpers (in_ns, check, log).
CI_TOOLS=$root/Tests/ThirdPartyFixtures/ci-tools

# The demo partner, every target scripts/demo audits, with the packaged configuration's paths.
ci_demo_inputs() {
    local fingerprint=B8:A5:BF:13:C9:8E:CB:B5:C6:D2:F9:36:F6:8D:7E:29:2A:CB:6D:DA:8F:48:F6:4E:0C:C3:A9:77:25:1A:2E:23
    printf '%s\n' --input package=appflipd.deb --input link=https://partner.appflip.test/link/flip \
        --input client-id=appflip-demo-client --input "scopes=profile devices" \
        --input oauth-config=/etc/appflipd/oauth.json \
        --input "resource-url=http://127.0.0.1:$oauth_port/userinfo" --input "revoke-url=http://127.0.0.1:$oauth_port/revoke" \
        --input app-id=DEMOTEAM01.dev.appflip.demo-partner \
        --input android-package=dev.appflip.demopartner --input android-action=dev.appflip.demopartner.APP_FLIP \
        --input "caller-fingerprints=$(printf 'DE:%.0s' $(seq 31))DE" \
        --input redirect-uri=https://oauth-redirect.googleusercontent.com/r/appflip-demo \
        --input assetlinks-file=/etc/appflipd/demo-partner.assetlinks.json --input "fingerprints=$fingerprint"
}

# ci_run NAME SYSTEM FILE [run_ci_step.py arguments…]: one run in a workspace of its own, its JSON, log and
# artifacts in $WORK/out/ci-NAME*, the client secret ($ci_secret) from the environment only.
ci_run() {
    local name=$1 system=$2 file=$3; shift 3
    local workspace=$WORK/ci-$name
    rm -rf "$workspace" "$WORK/out/ci-$name-artifacts"
    mkdir -p "$workspace"
    cp "$PACKAGE" "$workspace/appflipd.deb"
    # The secret through the environment (nsenter keeps it), on no command line.
    APPFLIP_E2E_SECRET=$ci_secret in_ns "$ci_python" "$CI_TOOLS/run_ci_step.py" "$system" "$file" \
        --workspace "/mnt/ci-$name" --artifacts "/mnt/out/ci-$name-artifacts" "$@" \
        >"$WORK/out/ci-$name.json" 2>"$WORK/out/ci-$name.log"
    log "ci: $name ($system) ran: $(head -c 300 "$WORK/out/ci-$name.json")"
}

ci_steps() {
    ci_python=$("$CI_TOOLS/setup.sh") || { fail "ci: Tests/ThirdPartyFixtures/ci-tools/setup.sh failed"; return; }
    ci_secret=$(in_ns sed -n 's/.*"clientSecret": *"\([^"]*\)".*/\1/p' /etc/appflipd/oauth.json | head -1)
    printf '%s\n' "$ci_secret" >"$WORK/out/ci-secrets"
    chmod 0600 "$WORK/out/ci-secrets"
    local inputs aasa=/etc/appflipd/demo-partner.apple-app-site-association
    mapfile -t inputs < <(ci_demo_inputs)

    # GitHub: the demo partner passes (exit 0); the summary, outputs, artifact and HAR as a job shows them.
    ci_run github-pass github "$root/.github/actions/audit/action.yml" "${inputs[@]}" --input "aasa-file=$aasa" \
        --secret client-secret=APPFLIP_E2E_SECRET
    check "ci: the GitHub Action audits the demo partner: exit 0, its outputs, summary, artifact and HAR" \
        "$ci_python" "$CI_TOOLS/ci_run_check.py" "$WORK/out/ci-github-pass.json" "$WORK/out/ci-github-pass.log" \
        "$WORK/out/ci-github-pass-artifacts/appflip-audit" --exit 0 --secrets "$WORK/out/ci-secrets"

    # GitHub: an association file that routes the link elsewhere fails aasa.routes-link; the action exits 2,
    # after the summary and the upload.
    printf '%s' '{"applinks":{"details":[{"appIDs":["DEMOTEAM01.dev.appflip.demo-partner"],"components":[{"/":"/elsewhere/*"}]}]}}' \
        >"$WORK/ci-elsewhere-aasa.json"
    ci_run github-fail github "$root/.github/actions/audit/action.yml" "${inputs[@]}" \
        --input aasa-file=/mnt/ci-elsewhere-aasa.json --secret client-secret=APPFLIP_E2E_SECRET
    check "ci: the GitHub Action fails as the audit does when a rule fails: exit 2, aasa.routes-link in the summary" \
        "$ci_python" "$CI_TOOLS/ci_run_check.py" "$WORK/out/ci-github-fail.json" "$WORK/out/ci-github-fail.log" \
        "$WORK/out/ci-github-fail-artifacts/appflip-audit" --exit 2 --failed aasa.routes-link --secrets "$WORK/out/ci-secrets"

    # GitLab: the demo partner passes; the secret from a CI/CD variable. Then a wrong secret: could not run, exit 1.
    ci_run gitlab-pass gitlab "$root/templates/audit/template.yml" "${inputs[@]}" --input "aasa-file=$aasa" \
        --secret APPFLIP_CLIENT_SECRET=APPFLIP_E2E_SECRET
    check "ci: the GitLab component audits the demo partner: exit 0, its JUnit report and artifacts" \
        "$ci_python" "$CI_TOOLS/ci_run_check.py" "$WORK/out/ci-gitlab-pass.json" "$WORK/out/ci-gitlab-pass.log" \
        "$WORK/out/ci-gitlab-pass-artifacts/appflip-audit" --exit 0 --secrets "$WORK/out/ci-secrets"
    check "ci: the GitLab component's JUnit report is among its artifacts" bash -c \
        "grep -q '\"junit\": \"appflip-audit/audit.xml\"' '$WORK/out/ci-gitlab-pass.json' && test -s '$WORK/out/ci-gitlab-pass-artifacts/appflip-audit/audit.xml'"
    # GitLab: a client secret the token endpoint refuses both ways: token.client-auth could not run, exit 1.
    local saved=$ci_secret
    ci_secret=not-the-demo-secret-0123456789
    printf '%s\n' "$ci_secret" >"$WORK/out/ci-wrong-secret"
    ci_run gitlab-could-not-run gitlab "$root/templates/audit/template.yml" --input package=appflipd.deb \
        --input link=https://partner.appflip.test/link/flip --input client-id=appflip-demo-client --input scopes=profile \
        --input "token-url=http://127.0.0.1:$oauth_port/token" --secret APPFLIP_CLIENT_SECRET=APPFLIP_E2E_SECRET
    ci_secret=$saved
    check "ci: the GitLab component exits 1 when the audit could not run fully (a refused client secret)" \
        "$ci_python" "$CI_TOOLS/ci_run_check.py" "$WORK/out/ci-gitlab-could-not-run.json" "$WORK/out/ci-gitlab-could-not-run.log" \
        "$WORK/out/ci-gitlab-could-not-run-artifacts/appflip-audit" --exit 1 --secrets "$WORK/out/ci-wrong-secret"
}
