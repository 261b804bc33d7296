-- wrk script: POST /auth/token (authorization_code), a fresh single-use code per request.
-- Thread n reads OUT_DIR/codes-<n>.txt (written by mint_codes.lua); all requests share one
-- ES256 client secret (CLIENT_SECRET), as a real backend reuses its secret for months.
local threads = {}
local counter = 0

function setup(thread)
    thread:set("id", counter)
    counter = counter + 1
    table.insert(threads, thread)
end

function init(args)
    codes = {}
    -- A later run in the same pool starts after the codes an earlier one spent (used-<n>.txt, written by
    -- done()): bench/run.sh redeems the pool in several rounds.
    local skip = 0
    local used = io.open(os.getenv("OUT_DIR") .. "/used-" .. id .. ".txt")
    if used then
        skip = tonumber(used:read("*l")) or 0
        used:close()
    end
    local seen = 0
    for line in io.lines(os.getenv("OUT_DIR") .. "/codes-" .. id .. ".txt") do
        seen = seen + 1
        if seen > skip then codes[#codes + 1] = line end
    end
    used_before = skip
    next_code = 1
    ok = 0
    not_ok = 0
    exhausted = 0
    prefix = "client_id=com.example.web&client_secret=" .. os.getenv("CLIENT_SECRET") ..
        "&grant_type=authorization_code&redirect_uri=http%3A%2F%2F127.0.0.1%3A8000%2Fcallback&code="
    headers = { ["Content-Type"] = "application/x-www-form-urlencoded" }
    if os.getenv("REFRESH_OUT") == "1" then
        refresh_file = io.open(os.getenv("OUT_DIR") .. "/refresh-" .. id .. ".txt", "w")
    end
end

function request()
    local code = codes[next_code]
    if code == nil then
        exhausted = 1
        wrk.thread:stop()
        code = "exhausted"
    end
    next_code = next_code + 1
    return wrk.format("POST", "/auth/token", headers, prefix .. code)
end

function response(status, headers, body)
    if status == 200 then
        ok = ok + 1
        -- REFRESH_OUT=1 keeps the first 256 refresh tokens per thread (refresh-<n>.txt) for refresh_tokens.lua.
        if refresh_file and ok <= 256 then
            local token = body:match('"refresh_token":"([^"]+)"')
            if token then refresh_file:write(token, "\n"); refresh_file:flush() end
            if ok == 256 then refresh_file:close(); refresh_file = nil end
        end
    else
        not_ok = not_ok + 1
        if not_ok <= 3 then
            io.stderr:write("non-200 from /auth/token: ", status, " ", body, "\n")
        end
    end
end

function done(summary, latency, requests)
    io.write(string.format("P99_US %d\n", latency:percentile(99)))
    local good, bad, dry = 0, 0, 0
    for _, thread in ipairs(threads) do
        local used = io.open(os.getenv("OUT_DIR") .. "/used-" .. thread:get("id") .. ".txt", "w")
        used:write(string.format("%d\n", thread:get("used_before") + thread:get("next_code") - 1))
        used:close()
        good = good + thread:get("ok")
        bad = bad + thread:get("not_ok")
        dry = dry + thread:get("exhausted")
    end
    io.write(string.format("STATUS200 %d NON200 %d EXHAUSTED_THREADS %d\n", good, bad, dry))
end
