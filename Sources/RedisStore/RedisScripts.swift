/// The Lua scripts that make each store operation one atomic step inside Redis
/// (https://redis.io/docs/latest/develop/interactive/programmability/eval-intro/): a code is redeemed
/// by exactly one caller, however many replicas race for it, and a revocation removes every token in
/// the same step. Keys are `<prefix><kind>:<rest>` (`RedisKeys`); scripts that follow the grant index
/// derive keys from the prefix in ARGV[1], which standalone Redis allows (Redis Cluster would not).
enum RedisScripts {
    /// Shared helpers: the (user, group) pair spelling and ending one authorization.
    static let prelude = """
        local function pair(u, g) return string.len(u) .. ':' .. u .. ':' .. g end
        local function hash(key)
          local f = redis.call('HGETALL', key)
          local h = {}
          for i = 1, #f, 2 do h[f[i]] = f[i + 1] end
          return h, f
        end
        local function prune(p, u, g)
          local k = pair(u, g)
          if redis.call('EXISTS', p .. 'k:' .. k, p .. 'e:' .. k, p .. 'i:' .. k) == 0 then
            redis.call('SREM', p .. 'u:' .. string.len(u) .. ':' .. u, g)
          end
        end
        local function endAuth(p, u, g)
          local k = pair(u, g)
          if redis.call('DEL', p .. 'k:' .. k) == 1 then redis.call('SET', p .. 'e:' .. k, '1') end
          for _, m in ipairs(redis.call('SMEMBERS', p .. 'i:' .. k)) do
            if string.sub(m, 1, 1) == 'c' then
              local s = redis.call('HGET', p .. m, 's')
              if s == 'i' or s == 'r' then redis.call('HSET', p .. m, 's', 'x') end
            else
              redis.call('DEL', p .. m)
            end
          end
          redis.call('DEL', p .. 'i:' .. k)
          prune(p, u, g)
        end
        local grantFields = {'cl', 'u', 'g', 'sc', 'at', 'f', 'rs', 'ru', 'ec'}

        """

    /// ARGV: prefix, user, group, requested scopes, now, expiresAt, ttl, client, redirect, hasRedirect,
    /// nonce, hasNonce, native real_user_status, forced real_user_status, code, email choice ('' for none).
    /// Returns {first (0/1), scopes, real_user_status or '', email choice or ''}.
    static let authorize =
        prelude + """
            local p, u, g = ARGV[1], ARGV[2], ARGV[3]
            local k = pair(u, g)
            local consent = redis.call('HMGET', p .. 'k:' .. k, 'sc', 'ec')
            local scopes, choice = consent[1], consent[2] or ''
            local first = 0
            if not scopes then
              first = 1
              scopes = ARGV[4]
              choice = ARGV[16]
              redis.call('HSET', p .. 'k:' .. k, 'sc', scopes, 'at', ARGV[5])
              if choice ~= '' then redis.call('HSET', p .. 'k:' .. k, 'ec', choice) end
              redis.call('DEL', p .. 'e:' .. k)
            end
            local rs = ARGV[14]
            if rs == '' and first == 1 then rs = ARGV[13] end
            local code = p .. 'c:' .. ARGV[15]
            redis.call('HSET', code, 's', 'i', 'exp', ARGV[6], 'cl', ARGV[8], 'u', u, 'g', g, 'sc', scopes,
              'at', ARGV[5], 'f', first)
            if ARGV[10] == '1' then redis.call('HSET', code, 'ru', ARGV[9]) end
            if ARGV[12] == '1' then redis.call('HSET', code, 'n', ARGV[11]) end
            if rs ~= '' then redis.call('HSET', code, 'rs', rs) end
            if choice ~= '' then redis.call('HSET', code, 'ec', choice) end
            redis.call('EXPIRE', code, ARGV[7])
            redis.call('SADD', p .. 'i:' .. k, 'c:' .. ARGV[15])
            redis.call('SADD', p .. 'u:' .. string.len(u) .. ':' .. u, g)
            return {first, scopes, rs, choice}
            """

    /// ARGV: prefix, code, client, redirect, hasRedirect, now, access token, access expiresAt, access ttl,
    /// refresh token, client authenticated ('1'/'0'). Decides in Apple's order (`AppleIdentityProvider.token`):
    /// the code's state and expiry, then the client's authentication (a refusal consumes nothing), then
    /// client_id and redirect_uri. Returns {'unknown'} or {status, the code's fields…} with status 'ok',
    /// 'used', 'revoked', 'gone' (expired), 'unauth', 'client' or 'redirect'.
    static let redeem =
        prelude + """
            local p = ARGV[1]
            local code = p .. 'c:' .. ARGV[2]
            local h, f = hash(code)
            if not h['s'] then return {'unknown'} end
            if h['s'] == 'r' then return {'used', unpack(f)} end
            if h['s'] == 'x' then return {'revoked', unpack(f)} end
            if h['s'] ~= 'i' then return {'gone', unpack(f)} end
            if tonumber(ARGV[6]) >= tonumber(h['exp']) then
              redis.call('HSET', code, 's', 'e')
              return {'gone', unpack(f)}
            end
            if ARGV[11] == '0' then return {'unauth', unpack(f)} end
            if h['cl'] ~= ARGV[3] then return {'client', unpack(f)} end
            if ARGV[5] == '1' then
              if h['ru'] ~= ARGV[4] then return {'redirect', unpack(f)} end
            elseif h['ru'] then
              return {'redirect', unpack(f)}
            end
            redis.call('HSET', code, 's', 'r')
            local fields = {}
            for _, name in ipairs(grantFields) do
              if h[name] then table.insert(fields, name); table.insert(fields, h[name]) end
            end
            local access = p .. 'a:' .. ARGV[7]
            redis.call('HSET', access, 'exp', ARGV[8], 'ia', ARGV[6], unpack(fields))
            redis.call('EXPIRE', access, ARGV[9])
            redis.call('HSET', p .. 'r:' .. ARGV[10], 'ia', ARGV[6], unpack(fields))
            redis.call('SADD', p .. 'i:' .. pair(h['u'], h['g']), 'a:' .. ARGV[7], 'r:' .. ARGV[10])
            return {'ok', unpack(f)}
            """

    /// ARGV: prefix, refresh token, client, now, access token, access expiresAt, access ttl, client
    /// authenticated ('1'/'0'). Returns {'unknown'} or {'ok'|'unauth'|'client', the token's fields…}.
    static let refresh =
        prelude + """
            local p = ARGV[1]
            local h, f = hash(p .. 'r:' .. ARGV[2])
            if not h['cl'] then return {'unknown'} end
            if ARGV[8] == '0' then return {'unauth', unpack(f)} end
            if h['cl'] ~= ARGV[3] then return {'client', unpack(f)} end
            local fields = {}
            for _, name in ipairs({'cl', 'u', 'g', 'sc', 'at', 'ru', 'ec'}) do
              if h[name] then table.insert(fields, name); table.insert(fields, h[name]) end
            end
            local access = p .. 'a:' .. ARGV[5]
            redis.call('HSET', access, 'exp', ARGV[6], 'ia', ARGV[4], 'f', '0', unpack(fields))
            redis.call('EXPIRE', access, ARGV[7])
            redis.call('SADD', p .. 'i:' .. pair(h['u'], h['g']), 'a:' .. ARGV[5])
            return {'ok', unpack(f)}
            """

    /// ARGV: prefix, token, client, hint ('' for none), now, client authenticated ('1'/'0').
    /// Returns {'none'} (not live) or {'ok'|'unauth'|'hint'|'client', owner client, user ('' if none)}.
    static let revoke =
        prelude + """
            local p = ARGV[1]
            local kind
            local h = hash(p .. 'r:' .. ARGV[2])
            if h['cl'] then
              kind = 'refresh_token'
            else
              h = hash(p .. 'a:' .. ARGV[2])
              if h['cl'] and tonumber(h['exp']) > tonumber(ARGV[5]) then kind = 'access_token' end
            end
            if not kind then return {'none'} end
            local owner = {h['cl'], h['u'] or ''}
            if ARGV[6] == '0' then return {'unauth', unpack(owner)} end
            if ARGV[4] ~= '' and ARGV[4] ~= kind then return {'hint', unpack(owner)} end
            if h['cl'] ~= ARGV[3] then return {'client', unpack(owner)} end
            redis.call('DEL', p .. 'r:' .. ARGV[2], p .. 'a:' .. ARGV[2])
            if h['u'] then endAuth(p, h['u'], h['g']) end
            return {'ok', unpack(owner)}
            """

    /// ARGV: prefix, user, group. Ends one authorization.
    static let endOne = prelude + "endAuth(ARGV[1], ARGV[2], ARGV[3])\nreturn 1\n"

    /// ARGV: prefix, user. Ends all; returns the groups that had a live consent.
    static let endAll =
        prelude + """
            local p, u = ARGV[1], ARGV[2]
            local consented = {}
            for _, g in ipairs(redis.call('SMEMBERS', p .. 'u:' .. string.len(u) .. ':' .. u)) do
              if redis.call('EXISTS', p .. 'k:' .. pair(u, g)) == 1 then table.insert(consented, g) end
              endAuth(p, u, g)
            end
            return consented
            """

    /// ARGV: prefix, user. Returns {group, status ('a' active, 'e' ended, '-' neither)} pairs.
    static let groups =
        prelude + """
            local p, u = ARGV[1], ARGV[2]
            local out = {}
            for _, g in ipairs(redis.call('SMEMBERS', p .. 'u:' .. string.len(u) .. ':' .. u)) do
              local k = pair(u, g)
              local status = '-'
              if redis.call('EXISTS', p .. 'k:' .. k) == 1 then
                status = 'a'
              elseif redis.call('EXISTS', p .. 'e:' .. k) == 1 then
                status = 'e'
              end
              table.insert(out, g); table.insert(out, status)
            end
            return out
            """

    /// ARGV: prefix, now, then (user, group, scopes) triples. Seeds once per prefix (the first replica).
    static let seed =
        prelude + """
            local p = ARGV[1]
            if redis.call('SET', p .. 'seeded', '1', 'NX') == false then return 0 end
            for i = 3, #ARGV, 3 do
              local u, g = ARGV[i], ARGV[i + 1]
              redis.call('HSET', p .. 'k:' .. pair(u, g), 'sc', ARGV[i + 2], 'at', ARGV[2])
              redis.call('SADD', p .. 'u:' .. string.len(u) .. ':' .. u, g)
            end
            return 1
            """
}
