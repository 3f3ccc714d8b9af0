-- voice-stream: the session API beside the WebSocket streams. Each wrk thread (one connection) holds one
-- session of its own API key and asks for a reconnection token again and again (GET /v3/voice/realtime?token=
-- with the latest token: the token rotates, the session stays), mixed with session requests the server must
-- refuse (an unsupported language: 400; no key: 401) and the web page.
-- Arguments: key=<API key> and token=<first token of the thread's session> (repeatable: thread i uses the
-- i-th), refused_body=<a session request body with an unsupported target language>, duration=, state=, delay_ms=.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
local soak = dofile(here .. "soak.lua")

local KINDS = { { "rotate", 55 }, { "refused-language", 15 }, { "no-key", 5 }, { "page", 25 } }
local options, key, pending

function setup(thread)
  soak.setup(thread)
end

function init(args)
  options = soak.parse_args(args)
  soak.init_thread(options, KINDS)
  local keys, tokens = options.all.key or {}, options.all.token or {}
  assert(#keys >= thread_index and #tokens >= thread_index, "voice-stream.lua needs a key= and a token= per thread")
  key = keys[thread_index]
  -- The latest token of this thread's session; nil while a rotation is in flight (or when it was lost).
  token = tokens[thread_index]
  for _, line in ipairs(soak.load_state(options.state)) do
    local saved = string.match(line, "^token=(.*)$")
    if saved then token = saved ~= "" and saved or nil end
  end
end

function request()
  if soak.is_wrk_check() then return soak.check_request() end
  local kind = soak.pick()
  -- In the last second no rotation starts: wrk would stop before its answer and the new token would be lost.
  if kind == "rotate" and (token == nil or soak.closing()) then kind = "page" end
  pending = kind
  soak.sent(kind)
  if kind == "rotate" then
    local path = "/v3/voice/realtime?token=" .. token
    token = nil
    return wrk.format("GET", path, { ["Authorization"] = "DeepL-Auth-Key " .. key })
  elseif kind == "refused-language" then
    return wrk.format("POST", "/v3/voice/realtime", { ["Authorization"] = "DeepL-Auth-Key " .. key, ["Content-Type"] = "application/json" }, options.refused_body)
  elseif kind == "no-key" then
    return wrk.format("POST", "/v3/voice/realtime", { ["Content-Type"] = "application/json" }, options.refused_body)
  else
    return wrk.format("GET", "/")
  end
end

local function refused_with(status, body, wanted_status, code)
  if status == wanted_status and string.find(body, '"code":"' .. code .. '"', 1, true) then
    soak.refused(pending)
  else
    soak.failed(pending, status, body, "expected " .. wanted_status .. " " .. code)
  end
end

function response(status, headers, body)
  if pending == "rotate" then
    local next_token = status == 200 and string.match(body, '"token":"([%w_%-]+)"')
    if next_token then
      token = next_token
      soak.ok(pending)
    else
      soak.failed(pending, status, body, "expected a new token")
    end
  elseif pending == "refused-language" then
    refused_with(status, body, 400, "unsupported_target_language")
  elseif pending == "no-key" then
    refused_with(status, body, 401, "unauthorized")
  elseif status == 200 and string.find(body, "<html", 1, true) then
    soak.ok(pending)
  else
    soak.failed(pending, status, body, "expected the web page")
  end
end

function delay()
  return soak.delay_ms
end

function done(summary, latency, requests)
  soak.report(summary, latency, function(thread)
    return "token=" .. (thread:get("token") or "")
  end)
end
