-- booking-api: a partner's day. Each wrk thread (one connection) is one partner session with its API key:
-- it reads the catalogue, creates bookings (current and deprecated route), captures them, reads and lists its
-- own bookings, and opens the voucher pages of fulfilled ones. Ids and voucher links come from the answers
-- and are carried to the next interval in the state file.
-- Arguments: key=<partner key> (repeatable: thread i uses key i, round robin), bodies=<file, one create body
-- per line>, product=<id> (repeatable), inventory=<path and query> (repeatable), duration=, state=.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local soak = dofile(here .. "soak.lua")

local API = "/api/public/v1"
local MAX_IDS = 2000
local MAX_QUEUE = 500
local MAX_VOUCHERS = 200

local KINDS = {
  { "read", 25 }, { "list", 14 }, { "create", 12 }, { "capture", 10 }, { "inventory", 12 },
  { "products", 7 }, { "product", 8 }, { "voucher", 6 }, { "create-legacy", 3 },
}

local options, headers, json_headers, bodies, pending_kind, pending_id

function setup(thread)
  soak.setup(thread)
end

local function split(text, separator)
  local items = {}
  for item in string.gmatch(text or "", "[^" .. separator .. "]+") do table.insert(items, item) end
  return items
end

function init(args)
  options = soak.parse_args(args)
  soak.init_thread(options, KINDS)
  local keys = options.all.key or {}
  assert(#keys > 0, "booking-api.lua needs key=<partner API key>")
  local key = keys[(thread_index - 1) % #keys + 1]
  headers = { ["Authorization"] = "Bearer " .. key }
  json_headers = { ["Authorization"] = "Bearer " .. key, ["Content-Type"] = "application/json" }
  bodies = {}
  for line in assert(io.open(options.bodies, "r"), "cannot open " .. tostring(options.bodies)):lines() do
    if #line > 0 then table.insert(bodies, line) end
  end
  -- Flat tables only (see soak.lua): booking ids of this thread's partner, those not captured yet, voucher paths.
  ids, uncaptured, vouchers = {}, {}, {}
  for _, line in ipairs(soak.load_state(options.state)) do
    local kind, list = string.match(line, "^(%a+)=(.*)$")
    local target = ({ ids = ids, uncaptured = uncaptured, vouchers = vouchers })[kind or ""]
    if target then for _, item in ipairs(split(list, ",")) do table.insert(target, item) end end
  end
end

local function remember(list, item, limit)
  table.insert(list, item)
  if #list > limit then table.remove(list, 1) end
end

local function any(list) return list[math.random(#list)] end

function request()
  if soak.is_wrk_check() then return soak.check_request() end
  local kind = soak.pick()
  if kind == "capture" and #uncaptured == 0 then kind = "create" end
  if kind == "voucher" and #vouchers == 0 then kind = "read" end
  if kind == "read" and #ids == 0 then kind = "list" end
  pending_kind, pending_id = kind, nil
  soak.sent(kind)
  if kind == "read" then
    pending_id = any(ids)
    return wrk.format("GET", API .. "/booking/" .. pending_id, headers)
  elseif kind == "list" then
    -- Mostly the first page, sometimes a later one (offsets stay within what this thread has seen).
    local offset = 0
    if math.random() < 0.5 and #ids > 20 then offset = math.random(0, #ids - 1) end
    return wrk.format("GET", API .. "/booking?offset=" .. offset .. "&limit=20", headers)
  elseif kind == "create" then
    return wrk.format("POST", API .. "/booking", json_headers, any(bodies))
  elseif kind == "create-legacy" then
    return wrk.format("POST", API .. "/booking/create", json_headers, any(bodies))
  elseif kind == "capture" then
    pending_id = table.remove(uncaptured, 1)
    return wrk.format("PUT", API .. "/booking/" .. pending_id, json_headers,
      '{"status":"PENDING","partnerReferenceId":"SOAK-' .. pending_id .. '"}')
  elseif kind == "inventory" then
    return wrk.format("GET", any(options.all.inventory), headers)
  elseif kind == "products" then
    return wrk.format("GET", API .. "/product", headers)
  elseif kind == "product" then
    return wrk.format("GET", API .. "/product/" .. any(options.all.product), headers)
  else -- voucher: the customer's page behind the booking's voucherUrl, no key
    return wrk.format("GET", any(vouchers))
  end
end

local function expect(kind, status, body, wanted_status, marker)
  if status ~= wanted_status then
    soak.failed(kind, status, body, "expected " .. wanted_status)
    return false
  end
  if marker and not string.find(body, marker, 1, true) then
    soak.failed(kind, status, body, "no " .. marker .. " in the answer")
    return false
  end
  soak.ok(kind)
  return true
end

function response(status, response_headers, body)
  local kind = pending_kind
  if kind == "create" then
    if expect(kind, status, body, 201, '"status":"UNCAPTURED"') then
      local id = string.match(body, '"bookingId":"(%d+)"')
      remember(ids, id, MAX_IDS)
      remember(uncaptured, id, MAX_QUEUE)
    end
  elseif kind == "create-legacy" then
    if expect(kind, status, body, 200, '"itineraryId"') then
      local id = string.match(body, '"itineraryId":"(%d+)"')
      remember(ids, id, MAX_IDS)
      remember(uncaptured, id, MAX_QUEUE)
    end
  elseif kind == "capture" then
    -- PENDING, or COMPLETED when the same capture had already been fulfilled.
    if status == 200 and (string.find(body, '"status":"PENDING"', 1, true) or string.find(body, '"status":"COMPLETED"', 1, true))
        and string.find(body, '"partnerReferenceId":"SOAK-' .. pending_id .. '"', 1, true) then
      soak.ok(kind)
    else
      soak.failed(kind, status, body, "expected the booking captured with its reference")
    end
  elseif kind == "read" then
    if expect(kind, status, body, 200, '"bookingId":"' .. pending_id .. '"') then
      local voucher = string.match(body, '"voucherUrl":"https?://[^/"]+(/voucher/[%w%-]+)"')
      if voucher then remember(vouchers, voucher, MAX_VOUCHERS) end
    end
  elseif kind == "list" or kind == "inventory" or kind == "products" then
    expect(kind, status, body, 200, '"items"')
  elseif kind == "product" then
    expect(kind, status, body, 200, '"variants"')
  elseif kind == "voucher" then
    expect(kind, status, body, 200, "<html")
  end
end

function delay()
  return soak.delay_ms
end

-- Main state: three lines per thread, "ids=1,2,3", "uncaptured=3" and "vouchers=/voucher/...".
function done(summary, latency, requests)
  soak.report(summary, latency, function(thread)
    local lines = {}
    for _, name in ipairs({ "ids", "uncaptured", "vouchers" }) do
      table.insert(lines, name .. "=" .. table.concat(thread:get(name) or {}, ","))
    end
    return lines
  end)
end
