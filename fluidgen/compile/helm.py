"""`fluidgen build --target alluxio-helm`: values for the upstream Alluxio Helm chart.

The same spec and profile that produce the Fluid Alluxio runtime produce chart values instead:
properties, jvmOptions per component, tieredstore levels, FUSE settings. What the chart
cannot express is named in a warning; what it cannot do at all (Fluid's own pvc://,
local:// and dataset:// mounts, an NFS volume and claim) is an error. Credentials are never
written into values (a values file is plain text); a warning says which properties to
supply out of band.

Written for the chart in Alluxio/alluxio integration/kubernetes/helm-chart/alluxio at
527b9fd (chart 0.6.x, image 2.9.2). Its values.yaml sets memory limits per component
(CHART_MEMORY); a JVM sized past the limit in force is killed, so that is a warning.
"""

from __future__ import annotations

from ..base.diagnostics import Diagnostic
from ..base.manifest import Manifest, Tree, jvm_flag, mapping
from ..base.quantity import java_size_to_bytes, to_bytes
from ..base.uri import LOCAL, PVC, REFERENCE, scheme_of
from ..engines import engine_table
from ..io.yamlreader import Document

COMPONENTS = ("master", "jobMaster", "worker", "jobWorker")
COMPONENT_KEYS = ("jvmOptions", "properties", "resources", "env", "nodeSelector")
FUSE_KEYS = ("jvmOptions", "properties", "resources", "env", "nodeSelector", "image", "imageTag",
             "imagePullPolicy")
HANDLED = {"alluxioVersion", "properties", "jvmOptions", "tieredstore", "fuse", "replicas", "data", *COMPONENTS}
# Fluid turns the runtime's data.replicas into this Alluxio property (pkg/ddc/alluxio/transform.go
# transformCommonPart, in every version versions.py lists: at least 1); the chart takes the property.
DATA_REPLICAS_PROPERTY = "alluxio.user.file.replication.max"
ROOT_UFS = "alluxio.master.mount.table.root.ufs"
ROOT_OPTION = "alluxio.master.mount.table.root.option."
CHART = "the Alluxio chart (Alluxio/alluxio 527b9fd, chart 0.6.x, image 2.9.2)"
# resources.limits.memory in that chart's values.yaml, per component
CHART_MEMORY = {"master": "8Gi", "jobMaster": "8Gi", "worker": "4Gi", "jobWorker": "4Gi", "fuse": "4Gi"}
FLUID_ONLY = (PVC, LOCAL, REFERENCE)  # schemes Fluid mounts itself, not through Alluxio's UFS
IMAGE_KEYS = ("image", "imageTag", "imagePullPolicy")
# runtime section -> the keys of it the chart values carry (of fuse.args only the FUSE options: _fuse)
CARRIED = (("data", frozenset({"replicas"})), *((name, frozenset(COMPONENT_KEYS)) for name in COMPONENTS),
           ("fuse", frozenset({*FUSE_KEYS, "args"})))


def values(objects: list[Manifest], doc: Document) -> tuple[Tree, list[Diagnostic]]:
    dataset = next(o for o in objects if o["kind"] == "Dataset")
    runtime = next(o for o in objects if o["kind"] == engine_table.INDEX["alluxio"].kind)
    spec: Tree = runtime["spec"]
    diags: list[Diagnostic] = [doc.diag((), f"values for {CHART}", "info", stage="helm")]
    if any(o["kind"] in ("PersistentVolume", "PersistentVolumeClaim") for o in objects):
        diags.append(doc.diag(("source",), "the Alluxio chart cannot create the NFS PersistentVolume and claim "
                                           "this spec needs; use --target fluid", stage="helm"))
    out = _chart_values(spec, {**_data_properties(spec), **spec.get("properties", {}),
                                **_root_mount(dataset, doc, diags)})
    diags += _memory_budget(out, doc)
    selector = _node_selector(dataset, doc, diags)
    if selector:
        out["nodeSelector"] = selector
    diags += _dropped(spec, doc)
    diags.append(doc.diag(("runtime", "replicas"), "the Alluxio chart runs a worker on every node its "
                                                   "nodeSelector matches; runtime.replicas does not apply",
                          "info", stage="helm"))
    return out, diags


def _chart_values(spec: Tree, properties: dict[str, str]) -> Tree:
    """The runtime's image, properties, JVM options, components, tiers and FUSE as chart values."""
    image = mapping(spec.get("alluxioVersion"))
    out: Tree = {k: image[k] for k in IMAGE_KEYS if k in image}
    out["properties"] = properties
    if spec.get("jvmOptions"):
        out["jvmOptions"] = list(spec["jvmOptions"])
    out.update(_components(spec))
    levels = mapping(spec.get("tieredstore")).get("levels")
    if levels:
        out["tieredstore"] = {"levels": [_level(i, lv) for i, lv in enumerate(levels)]}
    out["fuse"] = _fuse(mapping(spec.get("fuse")))
    return out


def _components(spec: Tree) -> Tree:
    """Each component's settings the chart takes (a component with none is left out)."""
    comps = {name: {k: v for k, v in mapping(spec.get(name)).items() if k in COMPONENT_KEYS} for name in COMPONENTS}
    return {name: comp for name, comp in comps.items() if comp}


def _data_properties(spec: Tree) -> dict[str, str]:
    """data.replicas as the property Fluid would set from it; data.pin has no chart equivalent."""
    replicas = (spec.get("data") or {}).get("replicas")
    return {DATA_REPLICAS_PROPERTY: str(max(int(replicas), 1))} if isinstance(replicas, int) else {}


def _root_mount(dataset: Tree, doc: Document, diags: list[Diagnostic]) -> dict[str, str]:
    mounts = dataset["spec"].get("mounts") or []
    if len(mounts) != 1:
        diags.append(doc.diag(("source",), "the Alluxio chart mounts exactly one root under storage; "
                                           f"this spec has {len(mounts)} mounts", stage="helm"))
        return {}
    mount = mounts[0]
    scheme = scheme_of(str(mount["mountPoint"]))
    if scheme in FLUID_ONLY:
        diags.append(doc.diag(("source", 0), f"{scheme}:// is Fluid's own mount, which the Alluxio chart cannot make "
                                             "its root UFS; use --target fluid, or a storage URI such as oss:// or "
                                             "hdfs://", stage="helm"))
        return {}
    props = {ROOT_UFS: mount["mountPoint"]}
    options = {**dataset["spec"].get("sharedOptions", {}), **mount.get("options", {})}
    props.update({ROOT_OPTION + k: v for k, v in sorted(options.items())})
    secret_options = [o["name"] for o in mount.get("encryptOptions", [])]
    if secret_options:
        keys = ", ".join(ROOT_OPTION + n for n in secret_options)
        diags.append(doc.diag(("source", 0, "credentials"), f"credentials are not written to Helm values; "
                                                            f"supply {keys} to the chart from your secret store",
                              "warning", stage="helm"))
    return props


def _level(index: int, level: Tree) -> Tree:
    paths = str(level.get("path", "/dev/shm" if level["mediumtype"] == "MEM" else "")).split(",")
    quotas = str(level["quotaList"]).split(",") if "quotaList" in level else [str(level.get("quota", ""))] * len(paths)
    out: Tree = {
        "level": index, "alias": level["mediumtype"], "mediumtype": ",".join([level["mediumtype"]] * len(paths)),
        "path": ",".join(paths), "type": level.get("volumeType", "hostPath"), "quota": ",".join(quotas)}
    for key in ("high", "low"):
        if key in level:
            out[key] = level[key]
    return out


def _fuse(fuse: Tree) -> Tree:
    out: Tree = {"enabled": True}
    out.update({k: v for k, v in fuse.items() if k in FUSE_KEYS})
    for arg in fuse.get("args") or []:
        if isinstance(arg, str) and arg.startswith("--fuse-opts="):
            out["mountOptions"] = arg.split("=", 1)[1]
    return out


def _dropped(spec: Tree, doc: Document) -> list[Diagnostic]:
    """A warning naming what of the runtime the values leave out: its keys the chart has no
    place for, then the parts of the sections it takes."""
    dropped = sorted(k for k in spec if k not in HANDLED) + _dropped_parts(spec)
    if not dropped:
        return []
    return [doc.diag(("runtime",), f"the Alluxio chart has no equivalent for {', '.join(dropped)}; not written to the "
                                   "values", "warning", stage="helm")]


def _dropped_parts(spec: Tree) -> list[str]:
    dropped = [f"{name}.{key}" for name, carried in CARRIED for key in mapping(spec.get(name)) if key not in carried]
    return sorted(dropped + _dropped_fuse_args(mapping(spec.get("fuse"))))


def _dropped_fuse_args(fuse: Tree) -> list[str]:
    """fuse.args when it holds more than `fuse` and --fuse-opts= (all the chart takes of them)."""
    extra = [a for a in fuse.get("args") or [] if a != "fuse" and not str(a).startswith("--fuse-opts=")]
    return ["fuse.args"] if extra else []


def _memory_budget(chart_values: Tree, doc: Document) -> list[Diagnostic]:
    """JVM heap plus direct memory per component against the memory limit the chart will apply
    (the values' own, else the chart's default)."""
    out = []
    for name, default in CHART_MEMORY.items():
        comp = mapping(chart_values.get(name))
        sizes = _jvm_sizes(comp)
        given = mapping(mapping(comp.get("resources")).get("limits")).get("memory")
        limit = str(given or default)
        budget = _bytes(limit)
        if sizes and budget is not None and sum(sizes) > budget:
            whose = "its" if given else "the chart's default"
            out.append(doc.diag(("runtime", name), f"{name} JVM heap and direct memory total "
                                                   f"{sum(sizes) / 2**30:.1f}GiB, above {whose} memory limit "
                                                   f"{limit}; the container would be OOM-killed. Set "
                                                   f"runtime.{name}.resources.limits.memory", "warning",
                                stage="helm"))
    return out


def _jvm_sizes(component: Tree) -> list[int]:
    """The JVM heap and direct memory a component's jvmOptions set, in bytes."""
    return [java_size_to_bytes(found[1]) or 0 for flag in ("-Xmx", "-XX:MaxDirectMemorySize=")
            if (found := jvm_flag(component.get("jvmOptions"), flag))]


def _bytes(limit: str) -> int | None:
    """A memory limit in bytes; None when it is not a quantity (then nothing is compared)."""
    try:
        return int(to_bytes(limit))
    except ValueError:
        return None


def _node_selector(dataset: Tree, doc: Document, diags: list[Diagnostic]) -> dict[str, str]:
    terms = mapping(mapping(dataset["spec"].get("nodeAffinity")).get("required")).get("nodeSelectorTerms")
    selector: dict[str, str] = {}
    for expr in mapping(terms[0]).get("matchExpressions") or [] if terms else []:
        if expr["operator"] == "In" and len(expr["values"]) == 1:
            selector[expr["key"]] = expr["values"][0]
        else:
            diags.append(doc.diag(("placement",), f"the chart's nodeSelector cannot say {expr['key']} In "
                                                  f"{expr['values']}; pin one value", stage="helm"))
    return selector
