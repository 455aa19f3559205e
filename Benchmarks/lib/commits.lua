-- wrk script: reads PAGE again and again and, every COMMIT_EVERY-th request, checks off (or
-- unchecks) a random activity with the app's own form POST, as a person in another tab would:
-- the first view after each commit is then part of what is measured. Needs CSRF_TOKEN and
-- ORIGIN (a session's cookie token and the server's origin) and ACTIVITIES (the highest
-- activity id; ids 1…ACTIVITIES exist after an import). COOKIES: the Cookie header of a
-- browser back on the site, sent with every request (the POST's CSRF cookie among them).
local page = os.getenv("PAGE") or "/"
local every = tonumber(os.getenv("COMMIT_EVERY") or "20")
local token = os.getenv("CSRF_TOKEN")
local origin = os.getenv("ORIGIN")
local activities = tonumber(os.getenv("ACTIVITIES"))
local cookies = os.getenv("COOKIES") or ("csrf_token=" .. (token or ""))
local threads = 0

function setup(thread)
    threads = threads + 1
    thread:set("thread_number", threads)
end

local read

function init()
    math.randomseed(thread_number * 7919)
    -- Formatted once: wrk's own cost per request then stays near a plain run's.
    read = wrk.format("GET", page, { ["Cookie"] = cookies })
end

local count = 0

function request()
    count = count + 1
    if count % every ~= 0 then return read end
    local id = math.random(1, activities)
    local body = "_csrf=" .. token .. "&complete=" .. (math.random(0, 1) == 1 and "true" or "false")
    return wrk.format("POST", "/activities/" .. id .. "/complete", {
        ["Content-Type"] = "application/x-www-form-urlencoded",
        ["Cookie"] = cookies,
        ["Origin"] = origin,
    }, body)
end
