-- A runtime with a status per component: status.master/worker/client, each with phase
-- (RuntimePhase), reason, message and replica counts (api/v1alpha1/cacheruntime_status.go).
-- A class may define no master; the client (FUSE) runs only where pods use the data and does
-- not decide health.
local status = obj.status
if status == nil then
  return {status = "Progressing", message = "Waiting for Fluid to set up the runtime"}
end
local m = status.master or {}
local w = status.worker or {}
local workers = count(w.readyReplicas) .. "/" .. count(w.desiredReplicas) .. " workers ready"
return judge_runtime(m.phase or "", w.phase or "", workers, status.setupDuration, said(m, nil), said(w, nil))
