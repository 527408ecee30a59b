-- Training job (MPIJob, PyTorchJob: kubeflow JobStatus conditions Created, Running,
-- Restarting, Succeeded, Suspended, Failed; TrainJob: Complete, Failed, Suspended).
local status = obj.status
local function holds(kind)
  local c = newest_condition(status, kind)
  if c ~= nil and c.status == "True" then
    return c
  end
  return nil
end
local failed = holds("Failed")
if failed ~= nil then
  return {status = "Degraded", message = said(failed, "The job failed")}
end
local done = holds("Succeeded") or holds("Complete")
if done ~= nil then
  return {status = "Healthy", message = said(done, "The job succeeded")}
end
local suspended = holds("Suspended")
if suspended ~= nil then
  return {status = "Suspended", message = said(suspended, "The job is suspended")}
end
local running = holds("Running") or holds("Restarting")
if running ~= nil then
  return {status = "Progressing", message = said(running, "Running")}
end
return {status = "Progressing", message = "Waiting for the operator to start the job"}
