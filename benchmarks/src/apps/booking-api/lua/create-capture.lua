-- The partner's booking flow, as fast as the server allows: POST /booking (create, 201), then PUT /booking/{id}
-- with status PENDING (capture, 200) for the id the create answered. Connections of a wrk thread share one queue
-- of created ids: a connection that is ready sends a capture when one is waiting, else a create, so every created
-- booking is captured once (except those created in the last moments). Answers are told apart by their content.
-- Arguments: key=<partner API key> body=<file with the create body>
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local common = dofile(here .. "../../../../lua/common.lua")

local API = "/api/public/v1"
local json_headers, create_body
-- Globals: read back per thread in done() with thread:get().
queue, created, captured, failed, first_failure = {}, 0, 0, 0, ""
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  local key, body_file
  for _, arg in pairs(args) do
    local name, value = string.match(arg, "^(%w+)=(.*)$")
    if name == "key" then key = value elseif name == "body" then body_file = value end
  end
  assert(key and body_file, "create-capture.lua needs key=<api key> body=<file>")
  local file = assert(io.open(body_file, "rb"))
  create_body = file:read("*a")
  file:close()
  json_headers = { ["Authorization"] = "Bearer " .. key, ["Content-Type"] = "application/json" }
end

function request()
  if #queue > 0 then
    local id = table.remove(queue, 1)
    return wrk.format("PUT", API .. "/booking/" .. id, json_headers, '{"status":"PENDING","partnerReferenceId":"BENCH-' .. id .. '"}')
  end
  return wrk.format("POST", API .. "/booking", json_headers, create_body)
end

function response(status, headers, body)
  if status == 201 then
    local id = string.match(body, '"bookingId":"(%d+)"')
    if id and string.find(body, '"status":"UNCAPTURED"', 1, true) then
      created = created + 1
      table.insert(queue, id)
      return
    end
  elseif status == 200 and string.find(body, '"partnerReferenceId":"BENCH-', 1, true)
      and (string.find(body, '"status":"PENDING"', 1, true) or string.find(body, '"status":"COMPLETED"', 1, true)) then
    -- PENDING, or already COMPLETED when a fulfilment round (another connection's capture woke it) came first.
    captured = captured + 1
    return
  end
  failed = failed + 1
  if first_failure == "" then first_failure = status .. " " .. string.sub(body, 1, 300) end
end

function done(summary, latency, requests)
  common.report(summary, latency)
  local total_created, total_captured, total_failed, failure = 0, 0, 0, ""
  for _, thread in ipairs(threads) do
    total_created = total_created + thread:get("created")
    total_captured = total_captured + thread:get("captured")
    total_failed = total_failed + thread:get("failed")
    if failure == "" then failure = thread:get("first_failure") end
  end
  io.write(string.format('BOOKING_FLOW {"created":%d,"captured":%d,"failed":%d,"firstFailure":"%s"}\n',
    total_created, total_captured, total_failed, string.gsub(failure, '[%c"\\]', " ")))
end
