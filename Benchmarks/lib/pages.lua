-- wrk script: cycles through the paths in the PATHS environment variable (space-separated), one
-- per request. BYPASS_CACHE=all gives every request a query string of its own
-- (`uncached=<thread>-<n>`), so the page cache never holds the page and each request renders it,
-- as the first view after a commit does; BYPASS_CACHE=half does so for every other request.
local paths = {}
for path in string.gmatch(os.getenv("PATHS") or "/", "%S+") do paths[#paths + 1] = path end
local bypass = os.getenv("BYPASS_CACHE") or "none"
local threads = 0

function setup(thread)
    threads = threads + 1
    thread:set("thread_number", threads)
end

local count = 0

function request()
    count = count + 1
    local path = paths[count % #paths + 1]
    if bypass == "all" or (bypass == "half" and count % 2 == 0) then
        local separator = string.find(path, "?", 1, true) and "&" or "?"
        path = path .. separator .. "uncached=" .. thread_number .. "-" .. count
    end
    return wrk.format("GET", path)
end
