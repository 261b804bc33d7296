# first_requests BASE CLIENT_SECRET: one request of each kind a backend's first sign-in makes (GET
# /auth/keys, discovery, a headless authorize for alice, the code's redemption). Sourced by bench/run.sh
# (its idle-RSS figure) and scripts/symbol-order.sh (the code those requests run, laid out together), so
# both measure the same path.
first_requests() {
    local base="$1" secret="$2" location code
    curl -fsS -o /dev/null "$base/auth/keys"
    curl -fsS -o /dev/null "$base/.well-known/openid-configuration"
    location="$(curl -fsS -o /dev/null -w '%{redirect_url}' "$base/auth/authorize?client_id=com.example.web&redirect_uri=http%3A%2F%2F127.0.0.1%3A8000%2Fcallback&response_type=code&response_mode=query&login_hint=alice")"
    code="$(sed -n 's/.*[?&]code=\([^&#]*\).*/\1/p' <<<"$location")"
    curl -fsS -o /dev/null -d client_id=com.example.web --data-urlencode "client_secret=$secret" \
        -d grant_type=authorization_code -d "code=$code" -d redirect_uri=http://127.0.0.1:8000/callback "$base/auth/token"
}
