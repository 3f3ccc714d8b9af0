-- Plain keep-alive: one request per write. GETs with headers, and POSTs with a body read from a file
-- (the 1 KB order of scenario 3): wrk -s request.lua URL -- method=POST body=order.json header="Content-Type: application/json"
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local common = dofile(here .. "common.lua")

function init(args)
  common.apply(common.parse_args(args))
end

function done(summary, latency, requests)
  common.report(summary, latency)
end
