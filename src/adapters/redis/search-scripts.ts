// The two Lua scripts of a charged search on Redis (search-coordination.ts): what the rate limiter, the
// flights and the two caches do one command at a time, in one call each, with the same keys and values.
// They touch several keys, so they need one Redis server (not a Cluster): the engine builds them only
// for its own `redis://` URL.

import { RELEASE_LUA } from './flights.js';
import { GCRA_FUNCTION_LUA } from './gcra-script.js';

/**
 * Entering a search.
 * KEYS: [1] the organization's GCRA key, [2] the repeat window, [3] the flight lock, [4] the confirmed-empty entry.
 * ARGV: [1] now (ms), [2] GCRA interval, [3] limit, [4] '1' to take the rate limit, [5] lock token, [6] lease (ms).
 * Returns { 0, ms until admitted } when refused; else { 1, 'window', text } (no lock taken: a free repeat
 * needs none), { 1, 'busy' } (the lock is another's), or { 1, 'held' [, empty entry text] }.
 * A window is served only while nobody holds the lock: a charged search writes its window before it
 * settles, so under a held lock the window may be one whose charge is still to come (or to fail).
 */
export const ENTER_LUA = `${GCRA_FUNCTION_LUA}
if ARGV[4] == '1' then
  local decision = gcra_take(KEYS[1], ARGV[1], ARGV[2], ARGV[3])
  if decision[1] == 0 then return decision end
end
local window = redis.call('GET', KEYS[2])
if window and redis.call('EXISTS', KEYS[3]) == 0 then return { 1, 'window', window } end
if not redis.call('SET', KEYS[3], ARGV[5], 'PX', ARGV[6], 'NX') then return { 1, 'busy' } end
local empty = redis.call('GET', KEYS[4])
if empty then return { 1, 'held', empty } end
return { 1, 'held' }
`;
export const ENTER_COMMAND = 'websiftSearchEnterV1';

/**
 * Leaving a search: deletes the repeat window when its charge did not happen ('del'; 'set' writes one,
 * unused since windows are written before the charge), then releases the lock if it still holds our
 * token, announcing the release like the flights' release script.
 * KEYS: [1] the flight lock, [2] the repeat window.
 * ARGV: [1] token, [2] release channel, [3] 'set' | 'del' | '' (no window), [4] window text, [5] its PX (ms).
 * Returns 1 when the lock was ours, else 0 (its lease had run out).
 */
export const LEAVE_LUA = `
if ARGV[3] == 'set' then
  redis.call('SET', KEYS[2], ARGV[4], 'PX', ARGV[5])
elseif ARGV[3] == 'del' then
  redis.call('DEL', KEYS[2])
end${RELEASE_LUA}`;
export const LEAVE_COMMAND = 'websiftSearchLeaveV1';
