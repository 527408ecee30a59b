-- Runtime: masterPhase/workerPhase (api/v1alpha1/status.go RuntimePhase: "", NotReady,
-- PartialReady, Ready). Fluid counts the runtime ready once its master is and one worker
-- is, and then sets setupDuration (pkg/ddc/<engine>/status.go). FUSE pods start only on
-- nodes whose pods use the data, so their phase does not decide health.
local status = obj.status
if status == nil then
  return {status = "Progressing", message = "Waiting for Fluid to set up the runtime"}
end
local workers = count(status.workerNumberReady) .. "/" .. count(status.desiredWorkerNumberScheduled) .. " workers ready"
return judge_runtime(status.masterPhase or "", status.workerPhase or "", workers, status.setupDuration,
  said(newest_condition(status, "MasterReady"), nil), said(newest_condition(status, "WorkersReady"), nil))
