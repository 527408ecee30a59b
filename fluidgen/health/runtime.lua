-- Runtime: masterPhase/workerPhase (api/v1alpha1/status.go RuntimePhase: "", NotReady,
-- PartialReady, Ready). Fluid counts the runtime ready once its master is and one worker
-- is, and then sets setupDuration (pkg/ddc/<engine>/status.go). FUSE pods start only on
-- nodes whose pods use the data, so their phase does not decide health.
local hs = {}
local status = obj.status
if status == nil then
  hs.status = "Progressing"
  hs.message = "Waiting for Fluid to set up the runtime"
  return hs
end
local master = status.masterPhase or ""
local worker = status.workerPhase or ""
local workers = count(status.workerNumberReady) .. "/" .. count(status.desiredWorkerNumberScheduled) .. " workers ready"
local set_up = status.setupDuration ~= nil and status.setupDuration ~= ""
if worker == "Ready" and master ~= "NotReady" then
  hs.status = "Healthy"
  hs.message = "Master and workers ready (" .. workers .. ")"
elseif set_up and (master == "NotReady" or worker == "NotReady") then
  hs.status = "Degraded"
  if master == "NotReady" then
    hs.message = said(newest_condition(status, "MasterReady"), "The master is not ready") .. " (was ready after " ..
      status.setupDuration .. ")"
  else
    hs.message = said(newest_condition(status, "WorkersReady"), "The workers are not ready") .. " (" .. workers ..
      "; was ready after " .. status.setupDuration .. ")"
  end
elseif worker == "PartialReady" then
  hs.status = "Progressing"
  hs.message = workers .. "; the cache serves data meanwhile"
else
  hs.status = "Progressing"
  if master ~= "Ready" and master ~= "PartialReady" then
    hs.message = "Setting up the master"
  else
    hs.message = "Setting up the workers (" .. workers .. ")"
  end
end
return hs
