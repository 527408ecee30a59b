"""Value types the spec models share (and engine modules use for their own spec sections):
names checked with the API server's rules, quantities, ratios, and the strict base model."""

from __future__ import annotations

import re
import shlex
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, WithJsonSchema

from . import names
from .diagnostics import did_you_mean
from .fluidsource import decided_by, source
from .quantity import is_quantity, quantity_hint, to_bytes


def _rule(check: Any) -> Any:
    def validate(value: object) -> object:
        if isinstance(value, str) and (problem := check(value)) is not None:
            raise ValueError(problem)
        return value
    return validate


def choice(values: tuple[str, ...]) -> Any:
    """A string that must be one of `values` (a table elsewhere owns the list)."""
    def validate(value: object) -> object:
        if isinstance(value, str) and value not in values:
            listed = ", ".join(repr(v) for v in values)
            raise ValueError(f"expected one of {listed}, got {value!r}{did_you_mean(value, values)}")
        return value
    return Annotated[str, BeforeValidator(validate), WithJsonSchema({"type": "string", "enum": list(values)})]


def _quantity(value: object) -> object:
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        value = str(value)
    if isinstance(value, str):
        if not is_quantity(value):
            raise ValueError(quantity_hint(value))
        to_bytes(value)  # ValueError past 2^63: Kubernetes refuses such a quantity
    return value


# A bare number is bytes to Kubernetes; below this a size that holds data is a forgotten unit.
_SMALLEST_BARE_SIZE = 2**20


def _size(value: object) -> object:
    """A quantity that holds data: above zero (a zero or negative cache or volume cannot work), and a
    bare number only when it is plainly meant as bytes (`quota: 50` is 50 bytes: a forgotten unit)."""
    value = _quantity(value)
    if isinstance(value, str) and to_bytes(value) <= 0:
        raise ValueError(f'"{value}" is not a usable size; give a positive one such as 10Gi')
    if isinstance(value, str) and value.isdigit() and int(value) < _SMALLEST_BARE_SIZE:
        raise ValueError(f"{value} without a unit is {value} bytes; did you mean {value}Gi? "
                         f"(write the unit: {value}Gi, {value}Mi or {value}G)")
    if isinstance(value, str) and not _MULTIPLE.search(value) and to_bytes(value) < _SMALLEST_BARE_SIZE:
        # +50, 1e3, 1.5, 500m: no byte multiple, so a few bytes (m is milli: 500m is half a byte)
        raise ValueError(f'"{value}" is {to_bytes(value).normalize():f} bytes; a size that holds data has a '
                         "unit such as Gi or Mi (10Gi)")
    return value


# A suffix that multiplies bytes (Kubernetes' binary and decimal SI suffixes from k up)
_MULTIPLE = re.compile(r"([KMGTPE]i|[kMGTPE])$")


def _sizes(value: object) -> object:
    items = value if isinstance(value, list) else [value]
    return [_size(v) for v in items]


def _str_list(value: object) -> object:
    return [value] if isinstance(value, str) else value


# What only a shell understands: a command line holding any of these cannot be split into argv;
# also a word starting with "#" (a comment: POSIX Shell Command Language 2.3 rule 10) and a leading
# NAME=value (an assignment for the command's environment: 2.9.1), which argv would pass on or run.
_SHELL_SYNTAX = re.compile(r"[|&;<>()$`*?~\\]|\n|(?:^|\s)#|^\s*[A-Za-z_][A-Za-z0-9_]*=")


def _argv(value: object) -> object:
    """A command line given as one string is split as a shell would split it (shlex), so
    `./launch.sh 4 8` runs the script with two arguments; one that needs a shell (pipes, `&&`,
    variables, globs, redirections) is refused with the list form that runs it in one."""
    if not isinstance(value, str):
        return value
    if _SHELL_SYNTAX.search(value):
        raise ValueError(f"{value!r} needs a shell to run (it uses shell syntax); write it as a list: "
                         f'["sh", "-c", {value!r}]')
    try:
        return shlex.split(value)
    except ValueError as e:
        raise ValueError(f"{value!r} cannot be split into arguments ({e}); write it as a list of strings") from None


def _absolute_path(value: object) -> object:
    if isinstance(value, str) and not value.startswith("/"):
        raise ValueError(f'"{value}" is a relative path; a cache directory on the node is absolute: "/{value}"')
    return value


# A Dataset mount's path places it in the cache's namespace only when it is absolute: any other is
# dropped for /<mount name> without a word (same code at every version fluidgen targets).
UNIFIED_NAMESPACE = source("pkg/utils/ufs_path_builder.go", "GenUFSPathInUnifiedNamespace")


@decided_by(UNIFIED_NAMESPACE)
def _mount_path(value: object) -> object:
    if value == "":  # not "/": that is the root, which an empty path is not
        raise ValueError(f"an empty path is no path: Fluid mounts at /<name> ({UNIFIED_NAMESPACE.cite()}); "
                         'leave path out for that, or write an absolute path such as "/data"')
    if isinstance(value, str) and not value.startswith("/"):
        raise ValueError(f'"{value}" is a relative path; Fluid ignores a mount path that is not absolute and '
                         f"mounts at /<name> instead ({UNIFIED_NAMESPACE.cite()}): write \"/{value}\"")
    return value


@decided_by(UNIFIED_NAMESPACE)
def _cache_namespace_path(value: object) -> object:
    """A path in the cache's namespace (a DataLoad target): rooted at /, where every mount sits
    (/<name>, or its absolute path)."""
    if isinstance(value, str) and not value.startswith("/"):
        raise ValueError(f'"{value}" is a relative path; a path in the cache namespace starts with "/", where '
                         f'the mounts sit (/<mount name> or the mount\'s path: {UNIFIED_NAMESPACE.cite()}): '
                         f'write "/{value}"')
    return value


# A plain decimal number: the text is passed on as written, and Python's float() also takes digit
# separators ("0_5") and spaces, which the engines' readers refuse (Go strconv.ParseFloat takes
# neither, Java Double.parseDouble no separator).
_DECIMAL = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


def _ratio(value: object) -> object:
    if isinstance(value, int | float) and not isinstance(value, bool):
        value = repr(float(value)) if isinstance(value, float) else str(value)
    if isinstance(value, str):
        if not _DECIMAL.fullmatch(value):
            raise ValueError(f'"{value}" is not a ratio between 0 and 1')
        number = float(value)
        if not 0 <= number <= 1:
            raise ValueError(f"{value} is not a ratio between 0 and 1")
    return value


Name = Annotated[str, BeforeValidator(_rule(names.dns1123_subdomain))]
DatasetName = Annotated[str, BeforeValidator(_rule(names.dns1035_label))]
DnsLabel = Annotated[str, BeforeValidator(_rule(names.dns1123_label))]
Namespace = DnsLabel
MountName = Annotated[str, BeforeValidator(_rule(names.mount_name))]
SecretKey = Annotated[str, BeforeValidator(_rule(names.secret_key))]
EnvName = Annotated[str, BeforeValidator(_rule(names.env_var_name))]
LabelKey = Annotated[str, BeforeValidator(_rule(names.qualified_name))]
LabelValue = Annotated[str, BeforeValidator(_rule(names.label_value))]
# A value asked of a node label (a nodeSelector's, or one of an affinity's values): names.py
NodeLabelValue = Annotated[str, BeforeValidator(_rule(names.node_label_value))]
NodeLabelValues = Annotated[list[Annotated[str, BeforeValidator(_rule(lambda v: names.node_label_value(v, True)))]],
                            BeforeValidator(_str_list, json_schema_input_type=str | list[str])]
NodeSelector = dict[LabelKey, NodeLabelValue]
Quantity = Annotated[str, BeforeValidator(_quantity, json_schema_input_type=int | str)]
Size = Annotated[str, BeforeValidator(_size, json_schema_input_type=int | str)]
SizeList = Annotated[list[str], BeforeValidator(
    _sizes, json_schema_input_type=int | str | list[int | str]), Field(min_length=1)]
StrList = Annotated[list[str], BeforeValidator(_str_list, json_schema_input_type=str | list[str])]
# A container's command or args: a list of strings, or one command line split as a shell would.
Argv = Annotated[list[str], BeforeValidator(_argv, json_schema_input_type=str | list[str])]
AbsolutePath = Annotated[str, BeforeValidator(_absolute_path)]
MountPath = Annotated[str, BeforeValidator(_mount_path)]
CachePath = Annotated[str, BeforeValidator(_cache_namespace_path)]
AbsolutePaths = Annotated[list[AbsolutePath], BeforeValidator(_str_list, json_schema_input_type=str | list[str])]
Ratio = Annotated[str, BeforeValidator(_ratio, json_schema_input_type=float | str)]
StrMap = dict[str, str]
Policy = Literal["Once", "Cron", "OnEvent"]
# A Go time.Duration string, not negative (External Secrets refreshInterval: "0s" fetches once), as
# Go's time.ParseDuration reads it: "0" alone, or numbers with a unit, each with digits before or
# after an optional point (".5h", "1.h", "1h30m"); "µs" and "μs" are both microseconds.
_DURATION = r"^(0|(([0-9]+\.?[0-9]*|\.[0-9]+)(ns|us|µs|μs|ms|s|m|h))+)$"


def _duration(value: object) -> object:
    if isinstance(value, str) and not re.search(_DURATION, value):
        unit = value.rstrip("0123456789.")[-1:]
        hint = f"; Go has no unit {unit!r} (a day is 24h)" if unit in ("d", "w", "y") else ""
        raise ValueError(f'"{value}" is not a Go duration such as 1h, 30m, 1h30m or 0s{hint}')
    return value


Duration = Annotated[str, Field(pattern=_DURATION), BeforeValidator(_duration)]
Replicas = Annotated[int, Field(ge=1, le=2**31 - 1)]
Int32 = Annotated[int, Field(ge=0, le=2**31 - 1)]


class Model(BaseModel):
    # defer_build: a model's validator is built at its first use, not at class creation. A
    # nested model's own validator is then never built (the top model's schema holds it), and
    # a command that reads no spec builds none. Same schema, same errors; an uncached build
    # of the ImageNet example: 4.5 ms less CPU (170 vs 175 ms, 21 paired runs).
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, defer_build=True)
