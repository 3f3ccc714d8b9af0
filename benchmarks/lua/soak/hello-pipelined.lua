-- framework-hello: GET /hello at full speed, `pipeline=N` requests (default 10) written at once per connection.
-- No response() callback: with it wrk would copy every body into Lua and become the bottleneck. Errors are
-- wrk's own counts (status >= 400, socket errors); the runner checks the body itself after every interval.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local soak = dofile(here .. "soak.lua")
local options
local batch

function setup(thread)
  soak.setup(thread)
end

function init(args)
  options = soak.parse_args(args)
  soak.init_thread(options, {})
  local pipeline = tonumber(options.pipeline or "10")
  batch = string.rep(wrk.format("GET", options.path or "/hello"), pipeline)
end

function request()
  return batch
end

function done(summary, latency, requests)
  soak.report(summary, latency, nil)
end
