// The GCRA of src/core/rate-limit.ts as one Lua script, so a take is atomic across every instance:
// the same operations in the same order on doubles, so both limiters admit exactly the same requests.
// Timestamps cross the script boundary as %.17g strings: Lua's tostring keeps 14 digits, and Redis
// truncates a number returned by a script to an integer.
//
// KEYS[1] the organization's theoretical arrival time (TAT).
// ARGV[1] now in ms, or '' to use Redis's TIME; ARGV[2] interval in ms per request; ARGV[3] limit.
// Returns { 1 } when admitted, { 0, allowAt - now } when refused.

/** The take as a Lua function, so a script that does more in the same call (search-scripts.ts) runs the same GCRA. */
export const GCRA_FUNCTION_LUA = `
local function gcra_take(key, nowArg, intervalArg, limitArg)
  local now
  if nowArg == '' then
    local t = redis.call('TIME')
    now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  else
    now = tonumber(nowArg)
  end
  local interval = tonumber(intervalArg)
  local limit = tonumber(limitArg)
  local tat = tonumber(redis.call('GET', key) or '') or now
  if tat < now then tat = now end
  local nextTat = tat + interval
  local allowAt = nextTat - limit * interval
  if now < allowAt then
    return { 0, string.format('%.17g', allowAt - now) }
  end
  -- Once now passes the TAT the bucket is full again and the key says nothing: it expires then.
  redis.call('SET', key, string.format('%.17g', nextTat), 'PX', math.max(1, math.ceil(nextTat - now)))
  return { 1 }
end
`;

export const GCRA_LUA = `${GCRA_FUNCTION_LUA}
return gcra_take(KEYS[1], ARGV[1], ARGV[2], ARGV[3])
`;

/** The command name the script is defined under on a client (namespaced and versioned: it may be the caller's). */
export const GCRA_COMMAND = 'websiftGcraTakeV2';
