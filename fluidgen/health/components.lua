-- CacheRuntime: status.master/worker/client, each with phase (RuntimePhase), reason,
-- message and replica counts (api/v1alpha1/cacheruntime_status.go). A class may define no
-- master; the client (FUSE) runs only where pods use the data and does not decide health.
local hs = {}
local status = obj.status
if status == nil then
  hs.status = "Progressing"
  hs.message = "Waiting for Fluid to set up the runtime"
  return hs
end
local function part(name)
  local c = status[name]
  if c == nil then
    return "", nil
  end
  return c.phase or "", c
end
local master, m = part("master")
local worker, w = part("worker")
local workers = "0/0 workers ready"
if w ~= nil then
  workers = count(w.readyReplicas) .. "/" .. count(w.desiredReplicas) .. " workers ready"
end
local set_up = status.setupDuration ~= nil and status.setupDuration ~= ""
if worker == "Ready" and master ~= "NotReady" then
  hs.status = "Healthy"
  hs.message = "Master and workers ready (" .. workers .. ")"
elseif set_up and (master == "NotReady" or worker == "NotReady") then
  hs.status = "Degraded"
  if master == "NotReady" then
    hs.message = said(m, "The master is not ready") .. " (was ready after " .. status.setupDuration .. ")"
  else
    hs.message = said(w, "The workers are not ready") .. " (" .. workers .. "; was ready after " ..
      status.setupDuration .. ")"
  end
elseif worker == "PartialReady" then
  hs.status = "Progressing"
  hs.message = workers .. "; the cache serves data meanwhile"
else
  hs.status = "Progressing"
  if master == "NotReady" then
    hs.message = said(m, "Setting up the master")
  else
    hs.message = said(w, "Setting up the workers (" .. workers .. ")")
  end
end
return hs
