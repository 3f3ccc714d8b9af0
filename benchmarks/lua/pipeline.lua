-- Pipelined: `pipeline=N` requests (default 10) written at once on each connection, so the server and
-- not the load generator is the bottleneck. Takes the same method/body/header arguments as request.lua.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local common = dofile(here .. "common.lua")
local batch

function init(args)
  local options = common.parse_args(args)
  if options.pipeline < 2 then options.pipeline = 10 end
  common.apply(options)
  local one = wrk.format(nil, nil, nil, nil)
  batch = string.rep(one, options.pipeline)
end

function request()
  return batch
end

function done(summary, latency, requests)
  common.report(summary, latency)
end
