-- Data operation: status.phase (pkg/common/types.go Phase: "", Pending, Executing,
-- Complete, Failed) and conditions of type Complete or Failed (api/v1alpha1/common.go).
local hs = {}
local status = obj.status
local phase = phase_of(status)
if phase == "Complete" then
  hs.status = "Healthy"
  hs.message = said(newest_condition(status, "Complete"), "Complete")
  if status.duration ~= nil and status.duration ~= "" then
    hs.message = hs.message .. " (took " .. status.duration .. ")"
  end
elseif phase == "Failed" then
  hs.status = "Degraded"
  hs.message = said(newest_condition(status, "Failed"), "Failed")
elseif phase == "Executing" then
  hs.status = "Progressing"
  hs.message = "Running"
elseif phase == "Pending" or phase == "" then
  hs.status = "Progressing"
  if status ~= nil and status.waitingFor ~= nil and status.waitingFor.operationComplete == false then
    hs.message = "Waiting for the operation it runs after"
  else
    hs.message = "Waiting for its Dataset to be bound"
  end
else
  hs.status = "Unknown"
  hs.message = "Unknown phase " .. phase
end
return hs
