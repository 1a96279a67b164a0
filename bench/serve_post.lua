-- wrk script of bench/serve_bench.py: POST the games of $BENCH_GAMES (JSON Lines) in turn,
-- each under a game_id of its own ($BENCH_TAG, the thread, a counter), one game per request;
-- $BENCH_DELAY_MS > 0 waits that long between a connection's requests (the half-load runs).
local games = {}
for line in io.lines(os.getenv("BENCH_GAMES")) do
  if #line > 0 then games[#games + 1] = line end
end
local tag = os.getenv("BENCH_TAG") or "b"
local delay_ms = tonumber(os.getenv("BENCH_DELAY_MS") or "0")
local counter = 0
local threads = 0

function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end

function request()
  counter = counter + 1
  local game = games[(counter % #games) + 1]
  local id = tag .. "-" .. tostring(tid) .. "-" .. counter
  local body = string.gsub(game, '"game_id"%s*:%s*"([^"]*)"', '"game_id":"%1-' .. id .. '"', 1)
  return wrk.format("POST", "/v1/games", {["Content-Type"] = "application/json"}, body)
end

if delay_ms > 0 then
  function delay() return delay_ms end
end
