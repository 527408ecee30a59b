-- Dataset: status.phase (api/v1alpha1/dataset_types.go DatasetPhase) and conditions.
local hs = {}
local status = obj.status
local phase = phase_of(status)
if phase == "Bound" then
  hs.status = "Healthy"
  hs.message = "Bound to its runtime"
  if status.cacheStates ~= nil and status.cacheStates.cachedPercentage ~= nil then
    hs.message = hs.message .. "; " .. status.cacheStates.cachedPercentage .. " cached"
  end
elseif phase == "Failed" then
  hs.status = "Degraded"
  hs.message = said(newest_condition(status, nil), "Fluid failed to bind the Dataset")
elseif phase == "Updating" then
  hs.status = "Progressing"
  hs.message = said(newest_condition(status, "Updating"), "Updating its mounts")
elseif phase == "DataMigrating" then
  hs.status = "Progressing"
  hs.message = "A DataMigrate is writing into the Dataset"
elseif phase == "NotBound" or phase == "Pending" or phase == "" then
  hs.status = "Progressing"
  hs.message = said(newest_condition(status, nil), "Waiting for its runtime (same name and namespace) to be ready")
else
  hs.status = "Unknown"
  hs.message = "Unknown Dataset phase " .. phase
end
return hs
