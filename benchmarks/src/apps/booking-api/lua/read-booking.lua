-- GET /booking/{id} over a set of the partner's bookings (uncaptured, pending and completed ones), a random id per
-- request, so the reads hit different rows rather than one cached answer.
-- Arguments: key=<partner API key> ids=<file with one booking id per line>
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local common = dofile(here .. "../../../../lua/common.lua")

local paths, headers = {}, nil

function init(args)
  local key, ids_file
  for _, arg in pairs(args) do
    local name, value = string.match(arg, "^(%w+)=(.*)$")
    if name == "key" then key = value elseif name == "ids" then ids_file = value end
  end
  assert(key and ids_file, "read-booking.lua needs key=<api key> ids=<file>")
  for line in assert(io.open(ids_file, "r")):lines() do
    if #line > 0 then table.insert(paths, "/api/public/v1/booking/" .. line) end
  end
  assert(#paths > 0, "no booking ids in " .. ids_file)
  headers = { ["Authorization"] = "Bearer " .. key }
  math.randomseed(os.time() + math.floor(os.clock() * 1e6))
end

function request()
  return wrk.format("GET", paths[math.random(#paths)], headers)
end

function done(summary, latency, requests)
  common.report(summary, latency)
end
