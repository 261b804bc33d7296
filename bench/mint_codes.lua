-- wrk script: mint authorization codes through the headless query-mode flow.
-- Each wrk thread appends the codes it receives (from the 302 Location) to OUT_DIR/codes-<n>.txt
-- and stops once it has added PER_THREAD of them. wrk itself still runs for its -d duration, so
-- run.sh calls this in short rounds until the pool is full. Env: OUT_DIR, PER_THREAD.
local threads = {}
local counter = 0

function setup(thread)
    thread:set("id", counter)
    counter = counter + 1
    table.insert(threads, thread)
end

function init(args)
    out_dir = os.getenv("OUT_DIR")
    quota = tonumber(os.getenv("PER_THREAD"))
    file = io.open(out_dir .. "/codes-" .. id .. ".txt", "a")
    minted = 0
    failed = 0
    local redirect = "http%3A%2F%2F127.0.0.1%3A8000%2Fcallback"
    path = "/auth/authorize?client_id=com.example.web&redirect_uri=" .. redirect ..
        "&response_type=code&response_mode=query&login_hint=alice&state=bench"
end

function request()
    return wrk.format("GET", path)
end

function response(status, headers, body)
    local location = headers["Location"] or headers["location"]
    local code = location and location:match("[?&]code=([^&#]+)")
    if minted >= quota then
        return
    end
    if status == 302 and code then
        file:write(code, "\n")
        minted = minted + 1
        if minted == quota then
            file:flush()
            wrk.thread:stop()
        end
    else
        failed = failed + 1
    end
end

function done(summary, latency, requests)
    local total, bad = 0, 0
    for _, thread in ipairs(threads) do
        total = total + thread:get("minted")
        bad = bad + thread:get("failed")
    end
    io.write(string.format("MINTED %d FAILED %d\n", total, bad))
end
