-- Shared by the soak scripts (lua/soak/*.lua): arguments, weighted choice of the next request kind, counters
-- per kind, a state file carried from one interval's wrk run to the next, and the result line the runner reads.
--
-- wrk copies a thread's globals to the main state (thread:get) only when they are numbers, strings or flat
-- tables: a table inside a table crashes it (wrk 4.1). So every counter and state is a flat global table.
--
-- The soak runs wrk with as many threads as connections (-tN -cN), so each thread's Lua state drives exactly
-- one connection: requests and responses alternate, and `response()` knows which request it answers
-- (wrk does not say which connection a response came from when a thread has several).
--
-- Arguments (after `--`): key=value, repeatable keys are kept in order. Used here:
--   duration=S   seconds of this run (to stop state-changing requests in its last second)
--   state=PATH   file the threads' state is read from at start and written to at the end (optional)
--   delay_ms=MS  pause before each request of a connection (scripts return it from wrk's delay())
local soak = {}

local threads = {}
local MAX_SAMPLES = 5

-- key=value arguments; every value of a key in `options.all[key]`, the last one in `options[key]`.
function soak.parse_args(args)
  local options = { all = {} }
  for _, arg in ipairs(args or {}) do
    local key, value = string.match(arg, "^([%w_]+)=(.*)$")
    assert(key, "soak arguments are key=value, got " .. tostring(arg))
    options[key] = value
    options.all[key] = options.all[key] or {}
    table.insert(options.all[key], value)
  end
  return options
end

-- Main state: remembers every thread (to read its counters in done()) and gives each an index from 1.
function soak.setup(thread)
  table.insert(threads, thread)
  thread:set("thread_index", #threads)
end

-- Thread state: counters and clock. `kinds` is a list of {name, weight}.
function soak.init_thread(options, kinds)
  soak_state_path = options.state -- read back by the main state in done() (wrk gives it no arguments)
  math.randomseed(os.time() * 1000 + thread_index * 7919)
  sent_counts, ok_counts, refused_counts, failed_counts, samples, sampled = {}, {}, {}, {}, {}, {}
  soak.kinds = kinds or {}
  soak.total_weight = 0
  for _, kind in ipairs(soak.kinds) do soak.total_weight = soak.total_weight + kind[2] end
  soak.started = os.time()
  -- wrk calls request() once on its first thread before the run, only to parse it (script_verify_request).
  soak.verify_call_pending = thread_index == 1
  soak.duration = tonumber(options.duration or "0") or 0
  -- delay_ms: pause before each request of this connection, so that all connections together keep to a rate.
  soak.delay_ms = tonumber(options.delay_ms or "0") or 0
end

-- True on wrk's check call (see init_thread): the script then returns `soak.check_request()` and changes nothing,
-- so that no token is spent and no request counted for a request that is never sent.
function soak.is_wrk_check()
  if not soak.verify_call_pending then return false end
  soak.verify_call_pending = false
  return true
end

function soak.check_request()
  return wrk.format("GET", "/")
end

-- A kind drawn by weight.
function soak.pick()
  local ticket = math.random() * soak.total_weight
  for _, kind in ipairs(soak.kinds) do
    ticket = ticket - kind[2]
    if ticket < 0 then return kind[1] end
  end
  return soak.kinds[#soak.kinds][1]
end

-- True during the last second of the run: scripts avoid requests whose answer they must not lose
-- (a rotated token, for instance) because wrk stops without waiting for answers in flight.
function soak.closing()
  return soak.duration > 0 and os.time() >= soak.started + soak.duration - 1
end

local function add(map, key) map[key] = (map[key] or 0) + 1 end

function soak.sent(kind) add(sent_counts, kind) end

-- The answer was what this kind of request should get.
function soak.ok(kind) add(ok_counts, kind) end

-- A refusal the mix asks for on purpose (e.g. a 400 for an unsupported language), with the expected status.
function soak.refused(kind) add(refused_counts, kind) end

-- Anything else: counted per kind and status, with the first few answers kept for the report.
-- One sample per kind of failure (request kind, status and reason), so a frequent failure cannot hide a rare one.
function soak.failed(kind, status, body, why)
  add(failed_counts, kind .. " " .. tostring(status))
  local key = kind .. " -> " .. tostring(status) .. " " .. (why or "")
  if not sampled[key] and #samples < MAX_SAMPLES then
    sampled[key] = true
    table.insert(samples, key .. ": " .. string.sub(body or "", 1, 300))
  end
end

-- Reads this thread's lines of the state file (lines "<thread index>\t<text>").
function soak.load_state(path)
  local lines = {}
  if not path then return lines end
  local file = io.open(path, "r")
  if not file then return lines end
  for line in file:lines() do
    local index, text = string.match(line, "^(%d+)\t(.*)$")
    if index and tonumber(index) == thread_index then table.insert(lines, text) end
  end
  file:close()
  return lines
end

local function json_string(text)
  text = string.gsub(text, '[%c"\\\128-\255]', function(char)
    if char == '"' then return '\\"' end
    if char == "\\" then return "\\\\" end
    if char == "\n" then return "\\n" end
    if char == "\t" then return "\\t" end
    local byte = string.byte(char)
    -- Bytes above 127 may be parts of UTF-8 or not: escaping them keeps the line valid JSON either way.
    return string.format("\\u%04x", byte)
  end)
  return '"' .. text .. '"'
end

local function json_map(map)
  local parts = {}
  for key, value in pairs(map) do table.insert(parts, json_string(key) .. ":" .. tostring(value)) end
  table.sort(parts)
  return "{" .. table.concat(parts, ",") .. "}"
end

local function merge(into, map)
  for key, value in pairs(map or {}) do into[key] = (into[key] or 0) + value end
end

-- Main state, from done(): adds up the threads' counters, writes the state file through `save_line(thread)`
-- (a function of the script that reads one thread's state with thread:get and returns its lines of text:
-- a string, a list of strings, or nil), and prints one result line.
function soak.report(summary, latency, save_line)
  local state_path = threads[1] and threads[1]:get("soak_state_path")
  local sent, ok, refused, failed, all_samples, seen_samples = {}, {}, {}, {}, {}, {}
  local state_lines = {}
  for index, thread in ipairs(threads) do
    merge(sent, thread:get("sent_counts"))
    merge(ok, thread:get("ok_counts"))
    merge(refused, thread:get("refused_counts"))
    merge(failed, thread:get("failed_counts"))
    for _, sample in ipairs(thread:get("samples") or {}) do
      local key = string.match(sample, "^(.-): ") or sample
      if not seen_samples[key] and #all_samples < MAX_SAMPLES then
        seen_samples[key] = true
        table.insert(all_samples, sample)
      end
    end
    if save_line then
      local saved = save_line(thread)
      if type(saved) == "string" then saved = { saved } end
      for _, line in ipairs(saved or {}) do table.insert(state_lines, index .. "\t" .. line) end
    end
  end
  if state_path and save_line then
    local file = assert(io.open(state_path, "w"))
    file:write(table.concat(state_lines, "\n"), "\n")
    file:close()
  end
  local sample_texts = {}
  for _, sample in ipairs(all_samples) do table.insert(sample_texts, json_string(sample)) end
  local errors = summary.errors
  io.write(string.format(
    'SOAK_RESULT {"requests":%d,"duration_us":%d,"bytes":%d,' ..
    '"socket_errors":{"connect":%d,"read":%d,"write":%d,"timeout":%d},"status_errors":%d,' ..
    '"latency_us":{"mean":%.2f,"p50":%d,"p99":%d,"max":%d},' ..
    '"sent":%s,"ok":%s,"refused":%s,"failed":%s,"samples":[%s]}\n',
    summary.requests, summary.duration, summary.bytes,
    errors.connect, errors.read, errors.write, errors.timeout, errors.status,
    latency.mean, latency:percentile(50), latency:percentile(99), latency.max,
    json_map(sent), json_map(ok), json_map(refused), json_map(failed), table.concat(sample_texts, ",")))
end

return soak
