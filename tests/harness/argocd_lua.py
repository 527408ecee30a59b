"""A Lua sandbox that runs a health script as Argo CD runs one from argocd-cm, no kinder.

Read from github:argoproj/argo-cd (v2.8.0 .. v3.5.1 alike; v3.5.1 cited) and
github:yuin/gopher-lua (v1.1.0 .. v1.1.2 alike, the versions those Argo CDs embed):

- util/lua/lua.go `VM.runLuaWithResourceActionParameters` (`VM.runLua` before v3.3):
  `lua.NewState(lua.Options{SkipOpenLibs: !vm.UseOpenLibs})`, then it opens only package
  (`lua.OpenPackage`), base (`lua.OpenBase`), table (`lua.OpenTable`) and `OpenSafeOs` under
  the name "os", preloads "os" (`SafeOsLoader`), sets the globals `obj` and `actionParams`,
  and runs the script under `context.WithTimeout(..., 1*time.Second)`.
- util/lua/lua.go `VM.GetHealthScript`: a script from argocd-cm keeps `UseOpenLibs` false
  unless `resource.customizations.useOpenLibs.<group_kind>` says "true"; only the built-in
  scripts get the open libraries. fluidgen writes no such key.
- util/lua/oslib_safe.go `OpenSafeOs` registers its functions under `lua.TabLibName`
  ("table"), whose module already exists, so gopher-lua's `LState.RegisterModule`
  (auxlib.go) leaves it as it is: there is no global `os`; `require("os")` gives
  {time, date} from the preload.
- gopher-lua baselib.go `OpenBase`/`baseFuncs`, tablelib.go `tableFuncs`, loadlib.go
  `OpenPackage`: the names below. stringlib.go `OpenString` is what gives strings their
  metatable, so without it `("x"):find(...)` fails as `string.find` does (argo-cd's own
  util/lua/lua_test.go TestGetResourceHealth "Disable Lua standard lib").
- util/lua/lua.go `VM.ExecuteHealthLua`: the returned table is encoded to JSON as a
  HealthStatus; a status outside Healthy, Progressing, Degraded, Suspended, Missing, Unknown
  becomes Unknown ("Lua returned an invalid health status"). gitops-engine/pkg/health/health.go
  `GetResourceHealth` turns a script error into Unknown with the error as the message.

lupa's Lua 5.1 opens every C library (and its base opens coroutine), so the sandbox builds
the script's environment from the names Argo CD gives, takes the string metatable away while
the script runs, and stops it after 1 s of wall time. It omits a few names Argo CD has
(getfenv, setfenv, load, loadfile, dofile, module, _printregs, _GOPHER_LUA_VERSION): in C Lua
they would reach the host's full global table or files, and leaving them out is stricter.
"""

from __future__ import annotations

import time
from typing import Any

import lupa.lua51 as lua51

# gopher-lua baselib.go baseFuncs (and OpenBase's _G, _VERSION, ipairs, pairs) that the sandbox
# gives; a subset of what Argo CD's state has, never more (tests/catalog/test_healthcheck.py checks it).
BASE = ("assert", "collectgarbage", "error", "getmetatable", "ipairs", "loadstring", "newproxy", "next", "pairs",
        "pcall", "print", "rawequal", "rawget", "rawset", "select", "setmetatable", "tonumber", "tostring", "type",
        "unpack", "xpcall")
TABLE = ("concat", "getn", "insert", "maxn", "remove", "sort")  # gopher-lua tablelib.go tableFuncs
SAFE_OS = ("date", "time")  # argo-cd util/lua/oslib_safe.go osFuncs, only through require("os")
# Every global name of Argo CD's state for an argocd-cm script (gopher-lua v1.1.x baseFuncs,
# OpenBase, OpenPackage, OpenTable; argo-cd runLuaWithResourceActionParameters' obj, actionParams).
ARGOCD_GLOBALS = frozenset({
    "assert", "collectgarbage", "dofile", "error", "getfenv", "getmetatable", "load", "loadfile", "loadstring",
    "next", "pcall", "print", "rawequal", "rawget", "rawset", "select", "_printregs", "setfenv", "setmetatable",
    "tonumber", "tostring", "type", "unpack", "xpcall", "module", "require", "newproxy", "_G", "_VERSION",
    "_GOPHER_LUA_VERSION", "ipairs", "pairs", "package", "table", "obj", "actionParams"})
TIMEOUT = 1.0  # seconds, util/lua/lua.go context.WithTimeout(context.Background(), 1*time.Second)
STATUSES = ("Healthy", "Progressing", "Degraded", "Suspended", "Missing", "Unknown")  # isValidHealthStatusCode

_SANDBOX = r"""
local base_names, table_names, os_names, now, limit = ...
local G = _G
local debug, error, pcall, ipairs, loadstring, setfenv, type = debug, error, pcall, ipairs, loadstring, setfenv, type
local string_meta = debug.getmetatable("")
return function(script, obj)
  local env = {}
  for _, name in ipairs(base_names) do env[name] = G[name] end
  local tbl = {}
  for _, name in ipairs(table_names) do tbl[name] = G.table[name] end
  local safe_os = {}
  for _, name in ipairs(os_names) do safe_os[name] = G.os[name] end
  env.table = tbl
  env._G = env
  env._VERSION = "Lua 5.1"
  local loaded = {_G = env, table = tbl}
  local package = {loaded = loaded, preload = {os = function() return safe_os end}}
  loaded.package = package
  env.package = package
  env.require = function(name)
    if loaded[name] ~= nil then return loaded[name] end
    local load = package.preload[name]
    if load == nil then error("module " .. tostring(name) .. " not found", 2) end
    loaded[name] = load(name)
    return loaded[name]
  end
  env.loadstring = function(chunk, chunkname)
    local fn, err = loadstring(chunk, chunkname)
    if fn ~= nil then setfenv(fn, env) end
    return fn, err
  end
  env.obj = obj
  env.actionParams = {}
  local fn, err = loadstring(script, "<string>")
  if fn == nil then return false, err end
  setfenv(fn, env)
  local deadline = now() + limit
  debug.setmetatable("", nil)
  debug.sethook(function()
    if now() > deadline then error("context deadline exceeded", 0) end
  end, "", 1000)
  local ok, result = pcall(fn)
  debug.sethook()
  debug.setmetatable("", string_meta)
  return ok, result
end
"""


class LuaScriptError(Exception):
    """The script failed where Argo CD's would: Argo CD shows the object Unknown with this message."""


def _sandbox(runtime: Any) -> Any:
    return runtime.execute(_SANDBOX, runtime.table_from(BASE), runtime.table_from(TABLE), runtime.table_from(SAFE_OS),
                           time.monotonic, TIMEOUT)


def run(script: str, obj: dict[str, Any]) -> Any:
    """The script's return value, run as Argo CD runs an argocd-cm script; LuaScriptError if it fails."""
    runtime = lua51.LuaRuntime(register_eval=False, register_builtins=False, unpack_returned_tuples=True)
    ok, result = _sandbox(runtime)(script, runtime.table_from(obj, recursive=True))
    if not ok:
        raise LuaScriptError(str(result))
    return result


def run_health(script: str, obj: dict[str, Any]) -> dict[str, Any]:
    """The HealthStatus Argo CD makes of the script's result (ExecuteHealthLua): status and
    message as strings, an invalid status Unknown; LuaScriptError when the script fails."""
    result = run(script, obj)
    if result is None:
        return {}
    if lua51.lua_type(result) != "table":
        raise LuaScriptError(f"expect table output from Lua script, not {lua51.lua_type(result) or type(result)}")
    out = {key: result[key] for key in ("status", "message") if result[key] is not None}
    for key, found in out.items():
        if not isinstance(found, str):
            raise LuaScriptError(f"json: cannot unmarshal {type(found).__name__} into HealthStatus.{key}")
    if not out:
        return {}  # an empty table encodes as a JSON array: Argo CD makes an empty HealthStatus of it
    if out.get("status", "") not in STATUSES:
        return {"status": "Unknown", "message": "Lua returned an invalid health status"}
    return out


def argocd_health(script: str, obj: dict[str, Any]) -> dict[str, Any]:
    """What Argo CD shows for the object (gitops-engine GetResourceHealth): a failing script is Unknown."""
    try:
        return run_health(script, obj)
    except LuaScriptError as err:
        return {"status": "Unknown", "message": str(err)}


def globals_given() -> set[str]:
    """The global names a script sees in the sandbox."""
    return set(run("local names = {} for k in pairs(_G) do names[#names + 1] = k end return names",
                   {}).values()) | {"obj", "actionParams"}
