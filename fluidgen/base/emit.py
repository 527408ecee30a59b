"""The one YAML writer. Same data, same bytes: sorted keys, fixed layout, safe quoting.

Strings are written plain only when neither YAML 1.1 (kubectl, PyYAML) nor YAML 1.2
(ruamel, many editors) would read them back as anything but the same string, so
"true", "0.99", "1000000", "on", "1:30" and "2024-01-01" are always quoted.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable
from typing import Any

TOP_KEYS = ("apiVersion", "kind", "metadata")

# C0 and C1 controls and DEL: printed as is by no line of fluidgen's own (a file or object name
# from a repository may hold a newline, a forged line in a log, or a terminal escape).
CONTROLS = (*range(0x20), *range(0x7f, 0xa0))
_ESCAPED = {c: f"\\x{c:02x}" for c in CONTROLS}


def printable(text: str) -> str:
    """`text` with every control written as \\xNN: one line, no terminal escape."""
    return text.translate(_ESCAPED)


_IMPLICIT = re.compile(r"""^(?:
    y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF
  | ~|null|Null|NULL
  | [-+]?(?:\.[0-9_]+|[0-9][0-9_]*(?:\.[0-9_]*)?)(?:[eE][-+]?[0-9]+)?
  | [-+]?0x[0-9a-fA-F_]+ | [-+]?0o[0-7_]+ | [-+]?0b[01_]+
  | [-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?
  | [-+]?\.(?:inf|Inf|INF) | \.(?:nan|NaN|NAN)
  | [0-9]{4}-[0-9]{1,2}-[0-9]{1,2}.*
  | = | <<
)$""", re.VERBOSE)
_PLAIN = re.compile(r"^[A-Za-z0-9_./$^(][^\n\t#]*$")


def _needs_quotes(text: str) -> bool:
    return (
        not text
        or not _PLAIN.match(text)
        or text != text.strip()
        or bool(_IMPLICIT.match(text))
        or ": " in text
        or text.endswith(":")
        or " #" in text
        or not text.isprintable()
    )


def _yaml_printable(ch: str) -> bool:
    """YAML 1.1/1.2 c-printable, minus the line/BOM characters that need escaping."""
    code = ord(ch)
    return (0x20 <= code <= 0x7E or code in (0x09, 0x0A) or (0xA0 <= code <= 0xD7FF and code not in (0x2028, 0x2029))
            or (0xE000 <= code <= 0xFFFD and code != 0xFEFF) or code >= 0x10000)


def _quoted(text: str) -> str:
    if _single_quotes_read_better(text):
        return "'" + text.replace("'", "''") + "'"
    out = json.dumps(text, ensure_ascii=False)
    if all(_yaml_printable(ch) for ch in out):
        return out
    return "".join(ch if _yaml_printable(ch) else _escape(ch) for ch in out)


def _single_quotes_read_better(text: str) -> bool:
    """Shell snippets and regexes read better without a second layer of escapes."""
    return ('"' in text or "\\" in text) and all(ch not in "\t\n" and _yaml_printable(ch) for ch in text)


def _escape(ch: str) -> str:
    return f"\\u{ord(ch):04x}" if ord(ch) <= 0xFFFF else f"\\U{ord(ch):08x}"


def scalar(value: Any) -> str:
    if isinstance(value, str):
        return _STRINGS.get(value) or _string(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _float(value)
    raise TypeError(f"cannot emit {type(value).__name__}")


def _string(text: str) -> str:
    written = _quoted(text) if _needs_quotes(text) else text
    if len(_STRINGS) < _STRINGS_MAX:
        _STRINGS[text] = written
    return written


def _float(value: float) -> str:
    if math.isnan(value):
        return ".nan"
    if math.isinf(value):
        return ".inf" if value > 0 else "-.inf"
    text = repr(value)
    return text if "." in text else text.replace("e", ".0e", 1)


# How each string is written, remembered: a batch of specs sharing a profile writes the same
# property names and values thousands of times (a pure function of the text; bounded).
_STRINGS: dict[str, str] = {}
_STRINGS_MAX = 200_000


def _block_ok(text: str) -> bool:
    return "\n" in text and all(ch in "\n\t" or (ch.isprintable() and _yaml_printable(ch)) for ch in text) \
        and "\r" not in text and text.strip("\n") != ""


def _block(text: str, indent: int) -> str:
    body = text.rstrip("\n")
    trailing = len(text) - len(body)
    chomp = "-" if trailing == 0 else ("" if trailing == 1 else "+")
    first = next(line for line in body.split("\n") if line)
    indicator = "2" if first[:1] in (" ", "\t") else ""
    pad = " " * (indent + 2)
    lines = [(pad + line) if line else "" for line in body.split("\n")]
    lines += [""] * (trailing - 1 if trailing > 1 else 0)
    return f"|{indicator}{chomp}\n" + "\n".join(lines)


def _key_order(mapping: dict[str, Any], top: bool) -> list[str]:
    keys = sorted(mapping)
    if top:
        head = [k for k in TOP_KEYS if k in mapping]
        keys = head + [k for k in keys if k not in head]
    return keys


def _lines(value: dict[str, object] | list[object], indent: int, out: list[str]) -> None:
    if isinstance(value, dict):
        _mapping_lines(value, indent, out)
    else:
        _sequence_lines(value, indent, out)


def _mapping_lines(value: dict[str, object], indent: int, out: list[str], top: bool = False) -> None:
    pad = " " * indent
    for key in _key_order(value, top):
        item = value[key]
        head = f"{pad}{scalar(key)}:"
        if isinstance(item, dict) and item:
            out.append(head)
            _mapping_lines(item, indent + 2, out)
        elif isinstance(item, list) and item:
            out.append(head)
            _sequence_lines(item, indent, out)
        elif isinstance(item, str) and _block_ok(item):
            out.append(f"{head} {_block(item, indent)}")
        else:
            out.append(f"{head} {_empty_or_scalar(item)}")


def _sequence_lines(value: list[object], indent: int, out: list[str]) -> None:
    pad = " " * indent
    for item in value:
        if isinstance(item, dict | list) and item:
            start = len(out)
            _lines(item, indent + 2, out)
            out[start] = f"{pad}- {out[start][indent + 2:]}"
        elif isinstance(item, str) and _block_ok(item):
            out.append(f"{pad}- {_block(item, indent)}")
        else:
            out.append(f"{pad}- {_empty_or_scalar(item)}")


def _empty_or_scalar(value: Any) -> str:
    if isinstance(value, dict):
        return "{}"
    if isinstance(value, list):
        return "[]"
    return scalar(value)


def dump(obj: dict[str, Any]) -> str:
    out: list[str] = []
    _mapping_lines(obj, 0, out, top=True)
    return "\n".join(out) + "\n"


def dump_all(objs: Iterable[dict[str, Any]]) -> str:
    return "---\n".join(dump(o) for o in objs)


def dump_json(objs: list[dict[str, Any]]) -> str:
    """A kubectl-compatible v1 List holding every object."""
    return json.dumps({"apiVersion": "v1", "kind": "List", "items": objs},
                      indent=2, sort_keys=True, ensure_ascii=False) + "\n"
