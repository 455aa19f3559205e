-- wrk script: cycles through the paths in the PATHS environment variable (space-separated),
-- one per request, for a mixed load run.
local paths = {}
for path in string.gmatch(os.getenv("PATHS") or "/", "%S+") do paths[#paths + 1] = path end
local index = 0
request = function()
    index = index % #paths + 1
    return wrk.format("GET", paths[index])
end
