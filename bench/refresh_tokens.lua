-- wrk script: POST /auth/token (refresh_token). Thread n cycles through OUT_DIR/refresh-<n>.txt (written by
-- redeem_codes.lua with REFRESH_OUT=1): a refresh token stays valid, and each use issues a new access token
-- and a freshly signed id_token. Env: OUT_DIR, CLIENT_SECRET.
local threads = {}
local counter = 0

function setup(thread)
    thread:set("id", counter)
    counter = counter + 1
    table.insert(threads, thread)
end

function init(args)
    tokens = {}
    for line in io.lines(os.getenv("OUT_DIR") .. "/refresh-" .. id .. ".txt") do tokens[#tokens + 1] = line end
    next_token = 0
    ok = 0
    not_ok = 0
    prefix = "client_id=com.example.web&client_secret=" .. os.getenv("CLIENT_SECRET") ..
        "&grant_type=refresh_token&refresh_token="
    headers = { ["Content-Type"] = "application/x-www-form-urlencoded" }
end

function request()
    next_token = next_token % #tokens + 1
    return wrk.format("POST", "/auth/token", headers, prefix .. tokens[next_token])
end

function response(status, headers, body)
    if status == 200 then ok = ok + 1 else not_ok = not_ok + 1 end
end

function done(summary, latency, requests)
    local good, bad = 0, 0
    for _, thread in ipairs(threads) do
        good = good + thread:get("ok")
        bad = bad + thread:get("not_ok")
    end
    io.write(string.format("P99_US %d\n", latency:percentile(99)))
    io.write(string.format("STATUS200 %d NON200 %d\n", good, bad))
end
