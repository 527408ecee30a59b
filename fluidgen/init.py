"""`fluidgen init`: a commented starter spec for an engine and a source.

Every value the user must supply is a <PLACEHOLDER>; lint rule FG102 refuses to build
until each one is filled in.
"""

from __future__ import annotations

import re

from . import DEFAULT_FLUID_VERSION
from .lower import ENGINES
from .lower.base import scheme_of
from .profiles import bundled_names

# (engine, scheme) -> non-secret options the engine needs or almost always wants
ENDPOINT_OPTIONS: dict[tuple[str, str], dict[str, str]] = {
    ("alluxio", "oss"): {"fs.oss.endpoint": "<OSS_ENDPOINT>"},
    ("alluxio", "s3"): {"alluxio.underfs.s3.endpoint": "<S3_ENDPOINT>", "alluxio.underfs.s3.region": "<S3_REGION>"},
    ("jindo", "oss"): {"fs.oss.endpoint": "<OSS_ENDPOINT>"},
    ("jindo", "s3"): {"fs.s3.endpoint": "<S3_ENDPOINT>", "fs.s3.region": "<S3_REGION>"},
    ("jindo", "cos"): {"fs.cos.endpoint": "<COS_ENDPOINT>"},
    ("jindo", "obs"): {"fs.obs.endpoint": "<OBS_ENDPOINT>"},
    ("juicefs", "juicefs"): {"bucket": "<OBJECT_STORE_BUCKET_URL>", "storage": "<STORAGE_TYPE>"},
}
DEFAULT_SOURCE = {"alluxio": "oss://<BUCKET>/<PATH>/", "jindo": "oss://<BUCKET>/<PATH>/", "juicefs": "juicefs:///",
                  "efc": "nfs://<FILE_SYSTEM_ID>.<REGION>.nas.aliyuncs.com:/<PATH>/",
                  "thin": "<SCHEME>://<LOCATION>", "goosefs": "cosn://<BUCKET>/<PATH>/", "vineyard": ""}


def env_name(option: str) -> str:
    return re.sub(r"[^A-Z0-9]+", "_", option.upper()).strip("_")


def _quote(value: str) -> str:
    from .emit import scalar

    return scalar(value)


def starter(engine_name: str, source: str | None, name: str) -> str:
    engine = ENGINES[engine_name]
    uri = DEFAULT_SOURCE[engine_name] if source is None else source
    scheme = scheme_of(uri)
    out = [
        "# yaml-language-server: $schema=https://raw.githubusercontent.com/<ORG>/fluidgen/main/"
        "schemas/fluidgen-spec.v1alpha1.json",
        f"# Starter spec from `fluidgen init --engine {engine_name}`. Replace every <PLACEHOLDER>, then:",
        "#   fluidgen build THIS_FILE | kubectl apply -f -",
        "# `fluidgen explain <field>` describes any field, e.g. `fluidgen explain runtime.cache`.",
        "apiVersion: fluidgen.io/v1alpha1",
        "kind: CachedDataset",
        "metadata:",
        f"  name: {name}  # Dataset and runtime share it: lower-case letters, digits, '-'",
        "  namespace: default",
        f"fluid: {DEFAULT_FLUID_VERSION}  # target Fluid version: v1.0.8 or v1.1.0-dev",
    ]
    if engine.needs_mounts:
        out += _source(engine_name, uri, scheme)
    if scheme == "dataset":
        # A reference to another dataset: its own runtime serves the data, Fluid ignores ours.
        out.append("runtime: {engine: thin}  # a dataset:// reference is always a ThinRuntime, with no settings")
        return "\n".join(out) + "\n"
    out += [
        "placement:",
        "  gpu: <GPU_MODEL>  # e.g. Tesla-V100-SXM2-16GB: cache on the GPU nodes; delete to cache anywhere",
        "runtime:",
        f"  engine: {engine_name}",
        "  replicas: 2  # cache workers; usually the number of training nodes",
        "  cache:",
        "    - medium: MEM  # MEM (default path /dev/shm), SSD or HDD with a path",
        "      quota: 8Gi",
    ]
    if engine_name == "thin":
        out += ["  thin:", "    fileSystemType: <FILE_SYSTEM_TYPE>  # or profileName: an existing ThinRuntimeProfile",
                "    profile:", "      fuse: {image: <FUSE_IMAGE>, imageTag: <FUSE_IMAGE_TAG>}"]
    if f"{engine_name}-default" in bundled_names():
        out.append(f"  profile: {engine_name}-default  # tuning; see `fluidgen profiles show {engine_name}-default`")
    return "\n".join(out) + "\n"


def _source(engine_name: str, uri: str, scheme: str) -> list[str]:
    lines = ["source:", f"  - uri: {_quote(uri)}"]
    options = ENDPOINT_OPTIONS.get((engine_name, scheme), {})
    if options:
        lines.append("    options:  # non-secret engine options")
        lines += [f"      {key}: {_quote(value)}" for key, value in options.items()]
    keys = sorted(ENGINES[engine_name].secret_keys.get(scheme, ()))
    if engine_name == "juicefs":
        keys = ["access-key", "metaurl", "secret-key"]
    if keys:
        lines += ["    credentials:  # read at build time; the values only ever go into a Secret",
                  "      fromEnv:"]
        lines += [f"        {key}: {env_name(key)}" for key in keys]
    return lines
