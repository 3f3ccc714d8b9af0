-- Shared by the benchmark's wrk scripts: reads key=value arguments (given after `--`) and prints the
-- result as one JSON line the runner parses. Arguments:
--   method=POST  body=/path/to/file  header=Name: value (repeatable)  pipeline=10
local common = {}

function common.parse_args(args)
  local options = { headers = {}, pipeline = 1 }
  for _, arg in pairs(args) do
    local key, value = string.match(arg, "^(%w+)=(.*)$")
    if key == "method" then
      options.method = value
    elseif key == "body" then
      local file = assert(io.open(value, "rb"), "cannot open body file " .. value)
      options.body = file:read("*a")
      file:close()
    elseif key == "header" then
      local name, header_value = string.match(value, "^([^:]+):%s*(.*)$")
      assert(name, "header must be 'Name: value', got " .. value)
      options.headers[name] = header_value
    elseif key == "pipeline" then
      options.pipeline = assert(tonumber(value), "pipeline must be a number")
    end
  end
  return options
end

-- Applies method, headers and body to wrk's request template.
function common.apply(options)
  if options.method then wrk.method = options.method end
  if options.body then wrk.body = options.body end
  for name, value in pairs(options.headers) do wrk.headers[name] = value end
end

function common.report(summary, latency)
  local errors = summary.errors
  io.write(string.format(
    'BENCH_RESULT {"requests":%d,"duration_us":%d,"bytes":%d,' ..
    '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
    '"latency_us":{"mean":%.2f,"p50":%d,"p90":%d,"p99":%d,"p999":%d,"max":%d}}\n',
    summary.requests, summary.duration, summary.bytes,
    errors.connect, errors.read, errors.write, errors.status, errors.timeout,
    latency.mean, latency:percentile(50), latency:percentile(90), latency:percentile(99),
    latency:percentile(99.9), latency.max))
end

return common
