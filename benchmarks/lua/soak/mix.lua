-- A fixed mix of requests with weights, each with the status and a text its answer must have and a text it
-- must not have. The runner writes the mix as a file, one request per line, fields separated by tabs:
--   kind  weight  method  path  headers ("Name: value" joined by " | ", or "-")  body (or "-")  status  must-contain  must-not-contain
-- ("-" = no check for the two texts). Arguments: mix=<file>, duration=, delay_ms=.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local soak = dofile(here .. "soak.lua")

local requests = {}
local pending

function setup(thread)
  soak.setup(thread)
end

local function fields(line)
  local list = {}
  for field in string.gmatch(line .. "\t", "([^\t]*)\t") do table.insert(list, field) end
  return list
end

function init(args)
  local options = soak.parse_args(args)
  local kinds = {}
  for line in assert(io.open(options.mix or "", "r"), "mix.lua needs mix=<file>"):lines() do
    if #line > 0 then
      local f = fields(line)
      assert(#f == 9, "a mix line has 9 tab-separated fields, got " .. #f .. ": " .. line)
      local headers = {}
      if f[5] ~= "-" then
        for header in string.gmatch(f[5] .. " | ", "(.-) | ") do
          local name, value = string.match(header, "^([^:]+):%s*(.*)$")
          assert(name, "header must be 'Name: value', got " .. header)
          headers[name] = value
        end
      end
      local body = f[6] ~= "-" and f[6] or nil
      requests[f[1]] = {
        text = wrk.format(f[3], f[4], headers, body),
        status = tonumber(f[7]),
        must = f[8] ~= "-" and f[8] or nil,
        must_not = f[9] ~= "-" and f[9] or nil,
      }
      table.insert(kinds, { f[1], tonumber(f[2]) })
    end
  end
  soak.init_thread(options, kinds)
end

function request()
  if soak.is_wrk_check() then return soak.check_request() end
  pending = soak.pick()
  soak.sent(pending)
  return requests[pending].text
end

function response(status, headers, body)
  local expected = requests[pending]
  if status ~= expected.status then
    soak.failed(pending, status, body, "expected " .. expected.status)
  elseif expected.must and not string.find(body, expected.must, 1, true) then
    soak.failed(pending, status, body, "no " .. expected.must)
  elseif expected.must_not and string.find(body, expected.must_not, 1, true) then
    soak.failed(pending, status, body, "has " .. expected.must_not)
  elseif status >= 400 then
    soak.refused(pending)
  else
    soak.ok(pending)
  end
end

function delay()
  return soak.delay_ms
end

function done(summary, latency, requests_done)
  soak.report(summary, latency, nil)
end
