"""Every lint rule has a hand-written manifest set that triggers it, and `lint` reports it there.

A new rule without a trigger here fails test_every_rule_has_a_trigger.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from fluidgen.lint import RULE_IDS, RULES

from .conftest import run_cli


def dataset(name: str = "d", mounts: str = '[{mountPoint: "https://example.com/data", name: d}]',
            extra: str = "") -> str:
    return f"""\
apiVersion: data.fluid.io/v1alpha1
kind: Dataset
metadata: {{name: {name}, namespace: default}}
spec:
  mounts: {mounts}
{extra}"""


def runtime(kind: str = "AlluxioRuntime", spec: str = "replicas: 1", name: str = "d") -> str:
    body = textwrap.indent(spec, "  ")
    return f"""\
apiVersion: data.fluid.io/v1alpha1
kind: {kind}
metadata: {{name: {name}, namespace: default}}
spec:
{body}
"""


ALLUXIO_OSS = dataset(mounts='[{mountPoint: "oss://b/p", name: d, options: {fs.oss.endpoint: e}, '
                             'encryptOptions: [{name: fs.oss.accessKeyId, valueFrom: {secretKeyRef: {name: s, key: '
                             'a}}}, {name: fs.oss.accessKeySecret, valueFrom: {secretKeyRef: {name: s, key: b}}}]}]')

# rule ID -> (Fluid version, documents)
TRIGGERS: dict[str, tuple[str, list[str]]] = {
    "FG101": ("v1.0.8", [dataset(mounts='[{mountPoint: "oss://b/p", name: d, options: {fs.oss.endpoint: e, '
                                        'fs.oss.accessKeyId: AKID, fs.oss.accessKeySecret: SECRET}}]'), runtime()]),
    "FG102": ("v1.0.8", [dataset(mounts='[{mountPoint: "oss://<BUCKET>/p", name: d}]'), runtime()]),
    "FG103": ("v1.0.8", ["""\
apiVersion: v1
kind: PersistentVolume
metadata: {name: nas}
spec:
  capacity: {storage: 10Gi}
  accessModes: [ReadWriteMany]
  mountOptions: [vers=3, nfsvers=4.1]
  nfs: {server: nas.example.com, path: /data}
"""]),
    "FG104": ("v1.0.8", [runtime(name="lonely")]),
    "FG105": ("v1.0.8", [dataset(name="1data"), runtime(name="1data")]),
    "FG106": ("v1.0.8", [dataset(), runtime(spec="replicas: 1\ntieredstore:\n  levels: [{mediumtype: MEM, "
                                                "path: /dev/shm, quota: 1Gi, high: '0.5', low: '0.9'}]")]),
    "FG107": ("v1.0.8", [dataset(), runtime(spec="replicas: 1\nfuse: {args: [fuse, --fuse-opts=direct_io]}")]),
    "FG108": ("v1.0.8", [dataset(), runtime(spec="replicas: 1\nproperties: {alluxio.fuse.jnifuse.enabled: 'false'}\n"
                                                "fuse: {args: [fuse, '--fuse-opts=kernel_cache,"
                                                "attr_timeout=7200,entry_timeout=7200']}")]),
    "FG109": ("v1.0.8", [dataset(), runtime(spec="replicas: 1\nfuse:\n  jvmOptions: [-XX:ActiveProcessorCount=32]"
                                                "\n  resources: {limits: {cpu: 4}}")]),
    "FG110": ("v1.0.8", [dataset(), runtime(spec="replicas: 1\nfuse:\n  jvmOptions: [-Xmx16G]\n"
                                                "  resources: {limits: {memory: 8Gi}}")]),
    "FG111": ("v1.0.8", [dataset(), runtime(spec="replicas: 1\nproperties: {alluxio.user.client.cache.store.type: "
                                                "MEMORY, alluxio.user.client.cache.size: 4GB}")]),
    "FG112": ("v1.0.8", [dataset(), runtime(spec="replicas: 1\ntieredstore:\n  levels: [{mediumtype: SSD, "
                                                "path: '/a,/b', quotaList: '1Gi,2Gi,3Gi'}]")]),
    "FG113": ("v1.0.8", [dataset(mounts='[{mountPoint: "juicefs:///", name: d}]'),
                         runtime("JuiceFSRuntime", "tieredstore:\n  levels: [{mediumtype: MEM, path: /dev/shm, "
                                                   "quota: 1Gi}, {mediumtype: SSD, path: /c, quota: 9Gi}]")]),
    "FG114": ("v1.0.8", [dataset(mounts='[{mountPoint: "https://a.example.com/x", name: m}, '
                                        '{mountPoint: "https://b.example.com/y", name: m}]'), runtime()]),
    "FG115": ("v1.0.8", [dataset(mounts='[{mountPoint: "dataset://ns/other", name: r}, '
                                        '{mountPoint: "https://example.com/x", name: h}]'),
                         runtime("ThinRuntime", "{}")]),
    "FG116": ("v1.0.8", [dataset(), runtime(spec="replicas: 1\nproperties: {alluxio.fuse.jnifuse.enabled: 'true'}\n"
                                                "fuse: {args: [fuse, --fuse-opts=kernel_cache]}")]),
    "FG117": ("v1.0.8", [dataset(mounts='[{mountPoint: "juicefs:///", name: d}]'),
                         runtime("JuiceFSRuntime", "tieredstore:\n  levels: [{mediumtype: MEM, path: /dev/shm, "
                                                   "quota: '40960'}]")]),
    "FG118": ("v1.0.8", [dataset(mounts='[{mountPoint: "oss://b/p", name: d, options: {fs.oss.endpoint: e}}]'),
                         runtime()]),
    "FG119": ("v1.0.8", [dataset(mounts='[{mountPoint: "oss://b/p", name: d, path: /data, '
                                        'options: {fs.oss.endpoint: e}}]'),
                         runtime("JindoRuntime", "replicas: 1\nfuse: {args: [-okernel_cache]}")]),
    "FG120": ("v1.0.8", [dataset(mounts='[{mountPoint: "dataset://ns/other", name: r}]'), runtime()]),
    "FG121": ("v1.0.8", [dataset(mounts='[{mountPoint: "dataset://ns/other", name: r}]'),
                         runtime("ThinRuntime", "replicas: 1")]),
    "FG122": ("v1.0.8", [dataset(), runtime("ThinRuntime", "profileName: p"), """\
apiVersion: data.fluid.io/v1alpha1
kind: ThinRuntimeProfile
metadata: {name: p}
spec:
  fileSystemType: fuse
  fuse: {image: i, imageTag: t, options: {allow_other: ''}}
"""]),
    "FG123": ("v1.0.8", [ALLUXIO_OSS.replace("fs.oss.endpoint: e}", "fs.oss.endpoint: e, fs.oss.accessKeyId: x}"),
                         runtime()]),
    "FG124": ("v1.0.8", [dataset(mounts='[{mountPoint: "https://a.example.com/x", name: a, path: /}, '
                                        '{mountPoint: "https://b.example.com/y", name: b}]'), runtime()]),
    "FG125": ("v1.0.8", [dataset(), runtime(), """\
apiVersion: data.fluid.io/v1alpha1
kind: DataLoad
metadata: {name: warm, namespace: default}
spec:
  dataset: {name: d, namespace: default}
  runAfter: {kind: DataLoad, name: never, namespace: default}
"""]),
    "FG126": ("v1.0.8", [dataset(), runtime(), """\
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: d, namespace: default}
spec:
  accessModes: [ReadWriteMany]
  resources: {requests: {storage: 1Gi}}
"""]),
    "FG127": ("v1.0.8", [dataset(), runtime(spec="replicas: 1\ntieredstore:\n  levels: [{mediumtype: SSD, "
                                                "path: /a, quota: 1Gi}, {mediumtype: SSD, path: /b, quota: 1Gi}]")]),
    "FG128": ("v1.1.0-dev", [dataset(), runtime("CacheRuntime", "runtimeClassName: demo"), """\
apiVersion: data.fluid.io/v1alpha1
kind: CacheRuntimeClass
metadata: {name: demo}
fileSystemType: demofs
topology: {}
---
apiVersion: data.fluid.io/v1alpha1
kind: DataLoad
metadata: {name: warm, namespace: default}
spec:
  dataset: {name: d, namespace: default}
"""]),
    "FG130": ("v1.0.8", [dataset(), runtime(), """\
apiVersion: data.fluid.io/v1alpha1
kind: DataLoad
metadata: {name: warm, namespace: default}
spec:
  dataset: {name: d, namespace: default}
  ttlSecondsAfterFinished: 300
"""]),
    "FG129": ("v1.0.8", [dataset(), runtime(spec="replicas: 1\nmaster: {resources: {requests: {cpu: '-1'}}}")]),
    "FG131": ("v1.0.8", [dataset(), runtime(spec='fuse: {args: [fuse, "--fuse-opts=kernel_cache"]}')]),
    "FG132": ("v1.0.8", [dataset(), runtime(
        spec="master: {replicas: 3}\nproperties: {alluxio.master.journal.type: UFS}")]),
    "FG134": ("v1.0.8", [dataset(name="a" * 46), runtime(name="a" * 46)]),
    "FG133": ("v1.0.8", [dataset(), runtime(spec='fuse: {args: [fuse, "--fuse-opts=kernel_cache,ro,nonempty"]}')]),
    "FG135": ("v1.0.8", [dataset(mounts='[{mountPoint: "oss://a/", name: a, options: {fs.oss.endpoint: e}, '
                                        'encryptOptions: [{name: fs.oss.accessKeyId, valueFrom: {secretKeyRef: '
                                        '{name: s1, key: id}}}]}, {mountPoint: "oss://b/", name: b, options: '
                                        '{fs.oss.endpoint: e}, encryptOptions: [{name: fs.oss.accessKeyId, '
                                        'valueFrom: {secretKeyRef: {name: s2, key: id}}}]}]'),
                         runtime("JindoRuntime")]),
    "FG140": ("v1.0.8", [dataset(), runtime(spec="fuse: {resources: {limits: {cpu: 16}}}")]),
    "FG141": ("v1.1.0-dev", [dataset(extra="  owner: {uid: 1000, gid: 1000}\n"), runtime("JuiceFSRuntime")]),
}


def test_every_rule_has_a_trigger() -> None:
    assert sorted(TRIGGERS) == sorted(RULE_IDS)


@pytest.mark.parametrize("rule_id", sorted(TRIGGERS))
def test_rule_fires_on_its_trigger(rule_id: str, tmp_path: Path) -> None:
    version, docs = TRIGGERS[rule_id]
    manifest = tmp_path / "m.yaml"
    manifest.write_text("---\n".join(docs))
    result = run_cli("lint", "--fluid-version", version, str(manifest))
    fired = [line for line in result.err.splitlines() if f"[{rule_id}]" in line]
    assert fired, result.err
    severity = next(r.severity for r in RULES if r.id == rule_id)
    assert all(f" {severity} [{rule_id}]" in line for line in fired)
    assert result.code == (1 if severity == "error" or "error [" in result.err else 0)
    silenced = run_cli("lint", "--fluid-version", version, "--ignore", rule_id, str(manifest))
    assert f"[{rule_id}]" not in silenced.err


@pytest.mark.parametrize("odd", [
    "sharedOptions: [a]\n  sharedEncryptOptions: 3\n  mounts: [{mountPoint: 'oss://b/p', name: d, options: 5, "
    "encryptOptions: [{name: {x: 1}}, 7]}]",
    "mounts: [{mountPoint: 'oss://b/p', name: d, encryptOptions: 9}]",
])
def test_rules_survive_odd_shapes(odd: str, tmp_path: Path) -> None:
    """Found by the fuzz suite: rules read hand-written input of any shape and never crash."""
    manifest = tmp_path / "m.yaml"
    manifest.write_text(f"apiVersion: data.fluid.io/v1alpha1\nkind: Dataset\nmetadata: {{name: d, namespace: default}}"
                        f"\nspec:\n  {odd}\n---\n" + runtime(spec="replicas: 1\nproperties: [x]\nfuse: {options: 3}"))
    result = run_cli("lint", str(manifest))
    assert result.code in (0, 1) and "internal error" not in result.err, result.err


EFC_NAS = dataset(mounts='[{mountPoint: "nfs://abc.cn-beijing.nas.aliyuncs.com:/data", name: d}]')


@pytest.mark.parametrize(("written", "kept", "ignored"), [("SSD, MEM", "levels[1], MEM", 0),
                                                          ("MEM, SSD", "levels[0], MEM", 1),
                                                          ("HDD, SSD", "levels[1], SSD", 0)])
def test_fg113_names_the_level_efc_keeps(tmp_path: Path, written: str, kept: str, ignored: int) -> None:
    """EFC keeps the level of its fastest medium, not levels[0] (pkg/ddc/efc/transform_tieredstore.go
    transformWorkerTieredStore keeps tieredstore.GetTieredLevel 0: MEM, SSD, HDD). FG113 said
    'only uses the first tieredstore level' of every engine, so for [SSD, MEM] it called the
    one level EFC uses the ignored one."""
    paths = {"MEM": "/dev/shm", "SSD": "/mnt/ssd", "HDD": "/mnt/hdd"}
    levels = ", ".join(f"{{mediumtype: {m}, path: {paths[m]}, quota: 9Gi}}" for m in written.split(", "))
    manifest = tmp_path / "m.yaml"
    manifest.write_text(EFC_NAS + "---\n" + runtime("EFCRuntime", f"tieredstore:\n  levels: [{levels}]"))
    result = run_cli("lint", "--fluid-version", "v1.0.8", str(manifest))
    assert f"error [FG113]: spec.tieredstore.levels[{ignored}]: EFCRuntime only uses the level of its fastest " \
        f"medium ({kept}); the others are ignored" in result.err


def test_fg113_keeps_the_first_level_for_the_other_engines(tmp_path: Path) -> None:
    manifest = tmp_path / "m.yaml"
    manifest.write_text(dataset(mounts='[{mountPoint: "juicefs:///", name: d}]') + "---\n" + runtime(
        "JuiceFSRuntime", "tieredstore:\n  levels: [{mediumtype: SSD, path: /c, quota: 9Gi}, "
                          "{mediumtype: MEM, path: /dev/shm, quota: 1Gi}]"))
    result = run_cli("lint", "--fluid-version", "v1.0.8", str(manifest))
    assert "error [FG113]: spec.tieredstore.levels[1]: JuiceFSRuntime only uses the first tieredstore level; " \
        "the others are ignored" in result.err
