"""Value types the spec models share (and engine modules use for their own spec sections):
names checked with the API server's rules, quantities, ratios, and the strict base model."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, WithJsonSchema

from . import names
from .diagnostics import did_you_mean
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


def _size(value: object) -> object:
    """A quantity that holds data: above zero (a zero or negative cache or volume cannot work)."""
    value = _quantity(value)
    if isinstance(value, str) and to_bytes(value) <= 0:
        raise ValueError(f'"{value}" is not a usable size; give a positive one such as 10Gi')
    return value


def _sizes(value: object) -> object:
    items = value if isinstance(value, list) else [value]
    return [_size(v) for v in items]


def _str_list(value: object) -> object:
    return [value] if isinstance(value, str) else value


def _ratio(value: object) -> object:
    if isinstance(value, int | float) and not isinstance(value, bool):
        value = repr(float(value)) if isinstance(value, float) else str(value)
    if isinstance(value, str):
        try:
            number = float(value)
        except ValueError:
            raise ValueError(f'"{value}" is not a ratio between 0 and 1') from None
        if not 0 <= number <= 1:
            raise ValueError(f"{value} is not a ratio between 0 and 1")
    return value


Name = Annotated[str, BeforeValidator(_rule(names.dns1123_subdomain))]
DatasetName = Annotated[str, BeforeValidator(_rule(names.dns1035_label))]
Namespace = Annotated[str, BeforeValidator(_rule(names.dns1123_label))]
MountName = Annotated[str, BeforeValidator(_rule(names.mount_name))]
SecretKey = Annotated[str, BeforeValidator(_rule(names.secret_key))]
EnvName = Annotated[str, BeforeValidator(_rule(names.env_var_name))]
LabelKey = Annotated[str, BeforeValidator(_rule(names.qualified_name))]
LabelValue = Annotated[str, BeforeValidator(_rule(names.label_value))]
Quantity = Annotated[str, BeforeValidator(_quantity, json_schema_input_type=int | str)]
Size = Annotated[str, BeforeValidator(_size, json_schema_input_type=int | str)]
SizeList = Annotated[list[str], BeforeValidator(
    _sizes, json_schema_input_type=int | str | list[int | str]), Field(min_length=1)]
StrList = Annotated[list[str], BeforeValidator(_str_list, json_schema_input_type=str | list[str])]
Ratio = Annotated[str, BeforeValidator(_ratio, json_schema_input_type=float | str)]
StrMap = dict[str, str]
Policy = Literal["Once", "Cron", "OnEvent"]
# A Go time.Duration string (External Secrets refreshInterval, ...): 1h, 30m, 1h30m, 0s
Duration = Annotated[str, Field(pattern=r"^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$")]
Replicas = Annotated[int, Field(ge=1, le=2**31 - 1)]
Int32 = Annotated[int, Field(ge=0, le=2**31 - 1)]


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
