"""The naming rules of the Kubernetes API server and of Fluid, checked on every name
fluidgen accepts or emits (object names, namespaces, labels, annotations, Secret keys).

Sources: k8s.io/apimachinery/pkg/util/validation (IsDNS1123Label, IsDNS1123Subdomain,
IsDNS1035Label, IsQualifiedName, IsValidLabelValue, IsConfigMapKey); Fluid requires
DNS-1035 labels for Datasets and runtimes (pkg/controllers/runtime_controller.go,
pkg/controllers/v1alpha1/dataset/dataset_controller.go).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

DNS1123_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
DNS1123_SUBDOMAIN = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")
DNS1035_LABEL = re.compile(r"^[a-z]([-a-z0-9]*[a-z0-9])?$")
QUALIFIED_NAME = re.compile(r"^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$")
LABEL_VALUE = re.compile(r"^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$")
SECRET_KEY = re.compile(r"^[-._a-zA-Z0-9]+$")
MOUNT_NAME = re.compile(r"^[A-Za-z0-9_][-A-Za-z0-9_.]*$")


ENV_VAR_NAME = re.compile(r"^[-._a-zA-Z][-._a-zA-Z0-9]*$")


def _directory_step(value: str) -> bool:
    """k8s.io/apimachinery/pkg/util/validation hasChDirPrefix: ".", ".." or anything starting with ".."."""
    return value.startswith("..") or value == "."


def env_var_name(value: str) -> str | None:
    """k8s.io/apimachinery/pkg/util/validation IsEnvVarName (its pattern, then hasChDirPrefix)."""
    if not ENV_VAR_NAME.match(value) or _directory_step(value):
        return f'"{value}" is not a valid environment variable name (letters, digits, "_", "-" and ".", not ' \
               'starting with a digit, not "." and not starting with "..")'
    return None


def dns1123_label(value: str) -> str | None:
    if len(value) > 63 or not DNS1123_LABEL.match(value):
        return (f'"{value}" is not a DNS-1123 label (at most 63 lower-case letters, digits and "-", '
                "starting and ending with a letter or digit)")
    return None


def dns1123_subdomain(value: str) -> str | None:
    if len(value) > 253 or not DNS1123_SUBDOMAIN.match(value):
        return (f'"{value}" is not a valid Kubernetes name (a DNS-1123 subdomain: at most 253 lower-case '
                'letters, digits, "-" and ".", starting and ending with a letter or digit)')
    return None


def dns1035_label(value: str) -> str | None:
    if len(value) > 63 or not DNS1035_LABEL.match(value):
        return (f'"{value}" is not a DNS-1035 label (at most 63 lower-case letters, digits and "-", starting '
                "with a letter, ending with a letter or digit); Fluid refuses such Dataset and runtime names")
    return None


def qualified_name(value: str) -> str | None:
    """A label or annotation key: an optional DNS subdomain prefix and a name."""
    prefix, slash, name = value.rpartition("/")
    if slash and not prefix:  # IsQualifiedName: "prefix part must be non-empty"
        return f'"{value}" has an empty prefix before "/" (write the key without "/", or prefix it with a domain)'
    if prefix and dns1123_subdomain(prefix):
        return f'"{value}" has an invalid prefix "{prefix}" (it must be a DNS-1123 subdomain)'
    if len(name) > 63 or not QUALIFIED_NAME.match(name):
        return (f'"{value}" is not a valid key (a name of at most 63 letters, digits, "-", "_" and ".", '
                "starting and ending with a letter or digit, after an optional prefix/)")
    return None


def label_value(value: str) -> str | None:
    if len(value) > 63 or not LABEL_VALUE.match(value):
        return (f'"{value}" is not a valid label value (at most 63 letters, digits, "-", "_" and ".", '
                "starting and ending with a letter or digit)")
    return None


# Why a node selector or node affinity value must be a label value: a node's labels are checked
# by the API server like any object's (k8s.io/apimachinery/pkg/api/validation ValidateObjectMeta ->
# k8s.io/apimachinery/pkg/apis/meta/v1/validation ValidateLabels -> pkg/util/validation
# IsValidLabelValue), so no node carries any other value and a selector asking for one matches no node.
NODE_LABEL_SOURCE = "k8s.io/apimachinery/pkg/util/validation IsValidLabelValue"


def node_label_value(value: str, several: bool = False) -> str | None:
    """A value a node selector or affinity asks a node label for; `several`: a list is allowed
    there, so one value holding a list is told to be written as a list."""
    problem = label_value(value)
    if problem is None:
        return None
    problem += f"; no node can carry it ({NODE_LABEL_SOURCE}), so no node would match"
    parts = [p.strip() for p in re.split(r"[,;]", value) if p.strip()]
    if several and len(parts) > 1 and all(label_value(p) is None for p in parts):
        problem += f"; for several values write a list: [{', '.join(parts)}]"
    return problem


def secret_key(value: str) -> str | None:
    if len(value) > 253 or not SECRET_KEY.match(value) or _directory_step(value):  # IsConfigMapKey
        return (f'"{value}" is not a valid Secret key (letters, digits, "-", "_" and ".", at most 253, not "." '
                'and not starting with "..")')
    return None


def mount_name(value: str) -> str | None:
    """A Dataset mount name becomes one path component (/<name>) in the cache and the pods."""
    if value in (".", "..") or len(value) > 253 or not MOUNT_NAME.match(value):
        return (f'"{value}" is not a valid mount name: it becomes the directory /{value}, so use letters, '
                'digits, "-", "_" and "." (no "/" and not "." or "..")')
    return None


def metadata_problems(meta: Mapping[str, Any], name_rule: str) -> list[tuple[tuple[str, ...], str]]:
    """(key path, message) for each name in an object's metadata that the API server refuses."""
    out: list[tuple[tuple[str, ...], str]] = []
    if (problem := _name_problem(meta.get("name"), name_rule)) is not None:
        out.append((("metadata", "name"), problem))
    namespace = meta.get("namespace")
    if isinstance(namespace, str) and (problem := dns1123_label(namespace)) is not None:
        out.append((("metadata", "namespace"), problem))
    return out + _label_and_annotation_problems(meta)


_NAME_RULES = {"dns1035": dns1035_label, "dns1123-label": dns1123_label}  # else dns1123_subdomain


def _name_problem(name: object, name_rule: str) -> str | None:
    if not isinstance(name, str) or not name:
        return "metadata.name is required"
    return _NAME_RULES.get(name_rule, dns1123_subdomain)(name)


def _label_and_annotation_problems(meta: Mapping[str, object]) -> list[tuple[tuple[str, ...], str]]:
    """Label and annotation keys must be qualified names; label values have their own form."""
    out: list[tuple[tuple[str, ...], str]] = []
    for field in ("labels", "annotations"):
        entries = meta.get(field)
        for key, value in entries.items() if isinstance(entries, dict) else ():
            problem = qualified_name(str(key))
            if problem is None and field == "labels" and isinstance(value, str):
                problem = label_value(value)
            if problem is not None:
                out.append((("metadata", field, str(key)), problem))
    return out
