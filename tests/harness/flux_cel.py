"""Flux's judgement of an object with `healthCheckExprs`, no kinder than kustomize-controller.

Read from github:fluxcd/kustomize-controller v1.9.4 (fluxcd/pkg runtime v0.110.1, cel-go
v0.26.1 in its go.mod), github:fluxcd/pkg runtime/cel (v0.110.1 = v0.111.0 there),
github:fluxcd/cli-utils and fluxcd/pkg ssa v0.76.1:

- internal/controller/kustomization_controller.go `Reconcile`: `cel.NewStatusReader`; an
  expression that does not parse makes the Kustomization Stalled (InvalidCELExpression).
- runtime/cel/expression.go `NewExpression`: the expression is only parsed (`env.Parse`, not
  Compile), with no declared variables; `EvaluateBoolean` evaluates it over the object's
  `UnstructuredContent()`, so the variables are the object's top-level fields (`apiVersion`,
  `kind`, `metadata`, `spec`, `status`, ...), there is no `self`, and a result that is not a
  bool is an error.
- runtime/cel/status_evaluator.go `NewStatusEvaluator` (current required, failed and
  inProgress optional) and `StatusEvaluator.Evaluate`: an int64 `status.observedGeneration`
  other than `metadata.generation` is InProgress; then inProgress, failed, current, the first
  true wins; none true is InProgress; an evaluation error is returned as an error.
- cli-utils pkg/kstatus/polling/statusreaders/generic.go `ReadStatusForObject` and common.go
  `errResourceToResourceStatus`: that error makes the object's status Unknown; pkg/ssa
  manager_wait.go `WaitForSetWithContext` keeps waiting on Unknown until the timeout.

cel-python stands in for cel-go with two corrections where it is kinder: `has(e.f)` evaluates
`e` and fails when `e` fails or is not a map (cel-python answers false), and `string()` gives
cel-go's text of a bool ("true", cel-python "True") and fails on a map or list (cel-python
prints it). Doubles are not converted (no health expression reads one): an error here.
"""

from __future__ import annotations

from typing import Any, Literal

import celpy
import lark
from celpy import celtypes
from celpy.evaluation import CELEvalError, Evaluator

FluxStatus = Literal["InProgress", "Failed", "Current", "Unknown"]
ORDER: tuple[tuple[str, FluxStatus], ...] = (("inProgress", "InProgress"), ("failed", "Failed"),
                                             ("current", "Current"))


class ParseError(Exception):
    """kustomize-controller refuses the Kustomization (Stalled, InvalidCELExpression)."""


class _GoEvaluator(Evaluator):  # type: ignore[misc]
    def macro_has_eval(self, exprlist: lark.Tree) -> Any:
        """cel-go's has(e.f): e must evaluate, to a map; then whether it holds the key f."""
        node = exprlist.children[0]
        while isinstance(node, lark.Tree) and node.data != "member_dot":
            if len(node.children) != 1:
                return CELEvalError("invalid argument to has() macro")
            node = node.children[0]
        if not isinstance(node, lark.Tree):
            return CELEvalError("invalid argument to has() macro")
        operand_tree, field = node.children
        operand = self.visit(operand_tree)
        if isinstance(operand, CELEvalError):
            return operand
        if not isinstance(operand, celtypes.MapType):
            return CELEvalError(f"no such key: {field.value} (has() on {type(operand).__name__})")
        return celtypes.BoolType(celtypes.StringType(field.value) in operand)


class _GoRunner(celpy.InterpretedRunner):  # type: ignore[misc]
    def evaluate(self, context: Any) -> Any:
        return _GoEvaluator(ast=self.ast, activation=self.new_activation()).evaluate(context)


def _go_string(found: Any) -> Any:
    """cel-go's string(): a string as it is, a bool as true/false, an integer in decimal."""
    if isinstance(found, celtypes.BoolType):
        return celtypes.StringType("true" if found else "false")
    if isinstance(found, celtypes.StringType):
        return found
    if isinstance(found, celtypes.IntType | celtypes.UintType):
        return celtypes.StringType(str(int(found)))
    return CELEvalError(f"no such overload: string({type(found).__name__})")


_ENV = celpy.Environment(runner_class=_GoRunner)  # no annotations: no declared variables


def parse(expr: str) -> Any:
    try:
        return _ENV.compile(expr)
    except celpy.CELParseError as err:
        raise ParseError(f"failed to parse the CEL expression '{expr}': {err}") from err


def evaluate(expr: str, obj: dict[str, Any]) -> bool | None:
    """EvaluateBoolean over the object's top-level fields; None where Flux gets an error."""
    activation = {key: celpy.json_to_cel(found) for key, found in obj.items()}
    try:
        result = _ENV.program(parse(expr), functions={"string": _go_string}).evaluate(activation)
    except CELEvalError:
        return None
    if not isinstance(result, celtypes.BoolType):
        return None  # an error value, or not a bool: "failed to evaluate CEL expression as boolean"
    return bool(result)


def _int64(found: Any) -> int | None:
    return found if isinstance(found, int) and not isinstance(found, bool) else None


def flux_status(entry: dict[str, Any], obj: dict[str, Any]) -> FluxStatus:
    """The kstatus status Flux gives the object with this healthCheckExprs entry."""
    if not entry.get("current"):
        raise ParseError("expression Current not specified")
    for key, _ in ORDER:
        if entry.get(key):
            parse(entry[key])
    observed = _int64((obj.get("status") or {}).get("observedGeneration") if isinstance(obj.get("status"), dict)
                      else None)
    generation = _int64((obj.get("metadata") or {}).get("generation"))
    if observed is not None and generation is not None and observed != generation:
        return "InProgress"
    for key, status in ORDER:
        if not entry.get(key):
            continue
        value = evaluate(entry[key], obj)
        if value is None:
            return "Unknown"
        if value:
            return status
    return "InProgress"
