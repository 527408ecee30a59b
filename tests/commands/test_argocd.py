"""The Argo CD plugin's generate command, run exactly as plugin.yaml declares it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

from tests.conftest import EXAMPLES, ROOT

PLUGIN = ROOT / "deploy" / "argocd" / "plugin.yaml"


def generate(app_dir: Path, **env: str) -> subprocess.CompletedProcess[str]:
    spec = yaml.safe_load(PLUGIN.read_text())["spec"]
    command = [*spec["generate"]["command"], *spec["generate"]["args"]]
    full_env = {"PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
                "ARGOCD_APP_NAME": "imagenet", "ARGOCD_APP_NAMESPACE": "training", **env}
    return subprocess.run(command, cwd=app_dir, env=full_env, capture_output=True, text=True, check=False)


def app(tmp_path: Path) -> Path:
    app_dir = tmp_path / "app"
    (app_dir / "credentials").mkdir(parents=True)
    shutil.copy(EXAMPLES / "jindo-imagenet-oss.yaml", app_dir / "dataset.yaml")
    shutil.copy(EXAMPLES / "credentials" / "imagenet-oss.env", app_dir / "credentials")
    (app_dir / "kustomization.yaml").write_text("resources: []\n")  # other YAML is ignored
    return app_dir


def test_generate_prints_only_manifests(tmp_path: Path) -> None:
    result = generate(app(tmp_path))
    assert result.returncode == 0, result.stderr
    docs = list(yaml.safe_load_all(result.stdout))
    assert [d["kind"] for d in docs] == ["Secret", "Dataset", "JindoRuntime"]
    # Other YAML in the application directory is named, never silently dropped; the example pins
    # namespace default, so the Application's destination (training) not applying is said (issue 41).
    assert result.stderr == "./dataset.yaml:7:3: warning: metadata.namespace: this spec pins namespace default: " \
                            "its objects go there, not to training from Argo CD's destination namespace " \
                            "(ARGOCD_APP_NAMESPACE, passed as --namespace) (a spec's own metadata.namespace wins; " \
                            "remove it to follow the setting)\n" \
                            "./kustomization.yaml: info: not built: holds no fluidgen spec (a plain manifest or a " \
                            "values file)\n"


def test_generate_reads_settings_from_argocd_env(tmp_path: Path) -> None:
    app_dir = app(tmp_path)
    spec = app_dir / "dataset.yaml"
    spec.write_text(spec.read_text().replace("  namespace: default\n", ""))
    result = generate(app_dir, ARGOCD_ENV_FLUIDGEN_FLUID_VERSION="v1.1.0-dev")
    assert result.returncode == 0, result.stderr
    assert {d["metadata"]["namespace"] for d in yaml.safe_load_all(result.stdout)} == {"training"}
    bad = generate(app_dir, ARGOCD_ENV_FLUIDGEN_FLUID_VERSION="v9")
    assert bad.returncode == 2 and bad.stdout == ""
    override = generate(app_dir, ARGOCD_ENV_FLUIDGEN_NAMESPACE="ml")
    assert {d["metadata"]["namespace"] for d in yaml.safe_load_all(override.stdout)} == {"ml"}


def test_generate_fails_loudly_on_a_broken_spec(tmp_path: Path) -> None:
    app_dir = app(tmp_path)
    spec = app_dir / "dataset.yaml"
    spec.write_text(spec.read_text().replace("replicas: 4", "replcas: 4"))
    result = generate(app_dir)
    assert result.returncode == 1
    assert result.stdout == ""
    assert "dataset.yaml:" in result.stderr and 'did you mean "replicas"' in result.stderr


def test_generate_fails_when_there_is_nothing_to_build(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    result = generate(empty)
    assert result.returncode != 0 and result.stdout == ""


def test_summary_line_for_many_specs_and_quiet(tmp_path: Path) -> None:
    from tests.conftest import run_cli

    app_dir = app(tmp_path)
    shutil.copy(EXAMPLES / "nfs-imagenet-alluxio.yaml", app_dir / "nfs.yaml")
    loud = run_cli("build", str(app_dir), env={})
    assert loud.code == 0, loud.err
    assert loud.err.splitlines()[-1] == "fluidgen: 2 specs, 7 objects, 1 warning, 0 errors"
    quiet = run_cli("build", "-q", str(app_dir), env={})
    assert "fluidgen: 2 specs" not in quiet.err and quiet.out == loud.out


def project_app(tmp_path: Path) -> Path:
    """An application directory with one base spec and an overlay per environment."""
    app_dir = app(tmp_path)
    base = app_dir / "dataset.yaml"
    base.write_text(base.read_text().replace("  namespace: default\n", ""))
    (app_dir / "envs").mkdir()
    (app_dir / "envs" / "prod.yaml").write_text("runtime:\n  replicas: 8\n")
    (app_dir / "envs" / "staging.yaml").write_text("runtime:\n  replicas: 1\n")
    (app_dir / "fluidgen.yaml").write_text(
        "apiVersion: fluidgen.io/v1alpha1\nkind: Project\nenvironments:\n"
        "  prod:\n    specs: [[dataset.yaml, envs/prod.yaml]]\n    namespace: ml-prod\n"
        "  staging:\n    specs: [[dataset.yaml, envs/staging.yaml]]\n")
    return app_dir


def test_generate_builds_the_selected_environment(tmp_path: Path) -> None:
    app_dir = project_app(tmp_path)
    prod = generate(app_dir, ARGOCD_ENV_FLUIDGEN_ENV="prod")
    assert prod.returncode == 0, prod.stderr
    docs = list(yaml.safe_load_all(prod.stdout))
    runtime = next(d for d in docs if d["kind"] == "JindoRuntime")
    assert runtime["spec"]["replicas"] == 8
    assert {d["metadata"]["namespace"] for d in docs} == {"ml-prod"}  # the environment's, not the app's
    assert {d["metadata"]["annotations"]["argocd.argoproj.io/sync-wave"] for d in docs} == {"0", "1"}
    # files the environment does not use are named, never dropped silently
    assert "kustomization.yaml: info: not built" in prod.stderr
    staging = generate(app_dir, ARGOCD_ENV_FLUIDGEN_ENV="staging")
    assert staging.returncode == 0, staging.stderr
    docs = list(yaml.safe_load_all(staging.stdout))
    assert next(d for d in docs if d["kind"] == "JindoRuntime")["spec"]["replicas"] == 1
    assert {d["metadata"]["namespace"] for d in docs} == {"training"}  # no setting: the app's destination


def test_generate_fails_on_a_broken_overlay_or_environment(tmp_path: Path) -> None:
    app_dir = project_app(tmp_path)
    (app_dir / "envs" / "prod.yaml").write_text("runtime:\n  replcas: 8\n")
    broken = generate(app_dir, ARGOCD_ENV_FLUIDGEN_ENV="prod")
    assert broken.returncode == 1 and broken.stdout == ""
    assert 'did you mean "replicas"' in broken.stderr
    unknown = generate(app_dir, ARGOCD_ENV_FLUIDGEN_ENV="qa")
    assert unknown.returncode == 1 and unknown.stdout == "" and 'no environment "qa"' in unknown.stderr
    unchosen = generate(app_dir)
    assert unchosen.returncode == 1 and "choose one with --env or FLUIDGEN_ENV" in unchosen.stderr


def test_project_paths_stay_inside_the_directory(tmp_path: Path) -> None:
    app_dir = project_app(tmp_path)
    (tmp_path / "outside.yaml").write_text((app_dir / "dataset.yaml").read_text())
    (app_dir / "fluidgen.yaml").write_text(
        "apiVersion: fluidgen.io/v1alpha1\nkind: Project\nenvironments:\n  prod:\n    specs: [../outside.yaml]\n")
    result = generate(app_dir)
    assert result.returncode == 1 and "outside the spec's directory" in result.stderr


def test_overlay_fragments_without_a_project_are_reported(tmp_path: Path) -> None:
    app_dir = app(tmp_path)
    (app_dir / "prod-overlay.yaml").write_text("runtime:\n  replicas: 8\n")
    result = generate(app_dir)
    assert result.returncode == 0
    assert "prod-overlay.yaml: warning: not built: this looks like an overlay fragment" in result.stderr


def test_diff_compares_an_environment(tmp_path: Path) -> None:
    from tests.conftest import run_cli

    app_dir = project_app(tmp_path)
    built = run_cli("build", "--env", "prod", str(app_dir), env={})
    assert built.code == 0, built.err
    rendered = tmp_path / "prod.yaml"
    rendered.write_text(built.out)
    same = run_cli("diff", "--env", "prod", str(app_dir), str(rendered), env={})
    assert same.code == 0, same.err + same.out
    drift = run_cli("diff", "--env", "staging", str(app_dir), str(rendered), env={})
    assert drift.code == 1 and "replicas" in drift.out


# --- plugin parameters (issue 27) --------------------------------------------------------------

def test_plugin_announces_its_parameters(tmp_path: Path) -> None:
    import json

    spec = yaml.safe_load(PLUGIN.read_text())["spec"]
    assert [p["name"] for p in spec["parameters"]["static"]] == ["env", "fluid-version", "namespace", "gitops"]
    assert not any("allow" in p["name"] for p in spec["parameters"]["static"])  # never what fluidgen reads
    dynamic = spec["parameters"]["dynamic"]["command"]
    full_env = {"PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    listed = subprocess.run(dynamic, cwd=project_app(tmp_path), env=full_env, capture_output=True, text=True,
                            check=False)
    assert listed.returncode == 0, listed.stderr
    (env,) = json.loads(listed.stdout)
    assert env["name"] == "env" and "prod, staging" in env["tooltip"] and env["required"] is True
    plain = subprocess.run(dynamic, cwd=app(tmp_path / "plain"), env=full_env, capture_output=True, text=True,
                           check=False)
    assert plain.returncode == 0 and json.loads(plain.stdout) == []


def test_plugin_parameters_reach_the_build(tmp_path: Path) -> None:
    app_dir = project_app(tmp_path)
    staging = generate(app_dir, PARAM_ENV="staging", PARAM_NAMESPACE="ml-staging", PARAM_FLUID_VERSION="v1.1.0-dev")
    assert staging.returncode == 0, staging.stderr
    docs = list(yaml.safe_load_all(staging.stdout))
    assert next(d for d in docs if d["kind"] == "JindoRuntime")["spec"]["replicas"] == 1
    assert {d["metadata"]["namespace"] for d in docs} == {"ml-staging"}
    none = generate(app_dir, PARAM_ENV="prod", PARAM_GITOPS="none")
    assert none.returncode == 0, none.stderr
    assert "sync-wave" not in none.stdout
    # the Application's plugin env comes first, as documented
    first = generate(app_dir, PARAM_ENV="staging", ARGOCD_ENV_FLUIDGEN_ENV="prod")
    assert next(d for d in yaml.safe_load_all(first.stdout) if d["kind"] == "JindoRuntime")["spec"]["replicas"] == 8
    bad = generate(app_dir, PARAM_ENV="prod", PARAM_FLUID_VERSION="v9")
    assert bad.returncode == 2 and "PARAM_FLUID_VERSION" in bad.stderr and bad.stdout == ""


def test_a_parameter_never_widens_what_fluidgen_reads(tmp_path: Path) -> None:
    app_dir = app(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "imagenet-oss.env").write_text((app_dir / "credentials" / "imagenet-oss.env").read_text())
    (app_dir / "credentials" / "imagenet-oss.env").unlink()
    spec = app_dir / "dataset.yaml"
    spec.write_text(spec.read_text().replace("credentials/imagenet-oss.env", str(outside / "imagenet-oss.env")))
    refused = generate(app_dir, PARAM_ALLOW_READ=str(outside), ARGOCD_ENV_FLUIDGEN_ALLOW_READ=str(outside))
    assert refused.returncode == 1 and refused.stdout == ""
    operator = generate(app_dir, FLUIDGEN_ALLOW_READ=str(outside))  # the sidecar's own setting
    assert operator.returncode == 0, operator.stderr


def test_parameters_and_build_never_read_a_planted_project_file(tmp_path: Path) -> None:
    """A hostile repository's fluidgen.yaml: a link to a file elsewhere or a FIFO is not read."""
    from tests.conftest import run_cli

    secret = tmp_path / "elsewhere.yaml"
    secret.write_text("apiVersion: fluidgen.io/v1alpha1\nkind: Project\nenvironments:\n  stolen: {specs: [x.yaml]}\n")
    app_dir = app(tmp_path)
    (app_dir / "fluidgen.yaml").symlink_to(secret)
    listed = run_cli("argocd", "parameters", str(app_dir))
    assert listed.code == 1 and "outside its directory" in listed.err and "stolen" not in listed.out + listed.err
    built = run_cli("build", str(app_dir))
    assert built.code == 1 and "outside its directory" in built.err
    (app_dir / "fluidgen.yaml").unlink()
    os.mkfifo(app_dir / "fluidgen.yaml")
    fifo = run_cli("argocd", "parameters", str(app_dir))
    assert fifo.code == 1 and "not a regular file" in fifo.err


def test_plain_manifests_beside_specs_are_passed_through(tmp_path: Path) -> None:
    """issue 25: in Argo CD a plain manifest beside the specs is applied as kustomize would,
    never dropped with exit 0; kustomize's own file and values files stay named as not built."""
    app_dir = app(tmp_path)
    quota = {"apiVersion": "v1", "kind": "ResourceQuota", "metadata": {"name": "gpus"},
             "spec": {"hard": {"requests.nvidia.com/gpu": "8"}}}
    (app_dir / "quota.yaml").write_text(yaml.safe_dump(quota))
    (app_dir / "values.yaml").write_text("replicas: 3\n")
    result = generate(app_dir)
    assert result.returncode == 0, result.stderr
    docs = list(yaml.safe_load_all(result.stdout))
    assert quota in docs and [d["kind"] for d in docs].count("ResourceQuota") == 1
    assert "./quota.yaml: info: passed through unchanged: 1 Kubernetes object (Argo CD mode)" in result.stderr
    assert "./values.yaml: info: not built" in result.stderr and "./kustomization.yaml: info: not built" in \
        result.stderr


def test_a_passed_through_object_that_a_spec_also_generates_fails(tmp_path: Path) -> None:
    app_dir = app(tmp_path)
    (app_dir / "runtime.yaml").write_text("apiVersion: data.fluid.io/v1alpha1\nkind: JindoRuntime\n"
                                          "metadata: {name: imagenet, namespace: default}\nspec: {replicas: 1}\n")
    result = generate(app_dir)
    assert result.returncode == 1 and result.stdout == ""
    assert "JindoRuntime default/imagenet is both generated from a spec and in a plain manifest" in result.stderr


QUOTA = {"apiVersion": "v1", "kind": "ResourceQuota", "metadata": {"name": "gpus"},
         "spec": {"hard": {"requests.nvidia.com/gpu": "8"}}}


def project_with_manifests(tmp_path: Path, prod_lists: str = "manifests: [quota.yaml]") -> Path:
    """project_app with a plain manifest (quota.yaml) that the prod environment lists."""
    app_dir = project_app(tmp_path)
    (app_dir / "quota.yaml").write_text(yaml.safe_dump(QUOTA))
    project = (app_dir / "fluidgen.yaml").read_text()
    (app_dir / "fluidgen.yaml").write_text(project.replace("    namespace: ml-prod\n",
                                                           f"    namespace: ml-prod\n    {prod_lists}\n"))
    return app_dir


def test_an_environment_passes_the_manifests_it_lists_through(tmp_path: Path) -> None:
    """An environment's manifests: are its output's, unchanged, in every mode; another
    environment leaves them out and names the file as not built."""
    from tests.conftest import run_cli

    app_dir = project_with_manifests(tmp_path)
    prod = generate(app_dir, ARGOCD_ENV_FLUIDGEN_ENV="prod")
    assert prod.returncode == 0, prod.stderr
    docs = list(yaml.safe_load_all(prod.stdout))
    assert QUOTA in docs and [d["kind"] for d in docs].count("ResourceQuota") == 1
    plain = run_cli("build", "--env", "prod", str(app_dir), env={})
    assert plain.code == 0 and QUOTA in list(yaml.safe_load_all(plain.out))
    staging = generate(app_dir, ARGOCD_ENV_FLUIDGEN_ENV="staging")  # listed by prod: not an orphan
    assert staging.returncode == 0, staging.stderr
    assert "ResourceQuota" not in staging.stdout
    assert 'quota.yaml: info: not built: environment "staging" of fluidgen.yaml does not list it' in staging.stderr


def test_argocd_refuses_a_plain_manifest_no_environment_lists(tmp_path: Path) -> None:
    """Open item of issue 26's note: in a project directory a plain manifest that no environment
    lists was only an info line, so Argo CD applied none of it (and pruned what it had applied).
    In Argo CD mode that is an error; a values file or kustomize's own file stays a note, and
    outside Argo CD mode the manifest stays a note too (the build then applies nothing it lacks)."""
    from tests.conftest import run_cli

    app_dir = project_with_manifests(tmp_path, prod_lists="")
    (app_dir / "values.yaml").write_text("replicas: 3\n")
    refused = generate(app_dir, ARGOCD_ENV_FLUIDGEN_ENV="prod")
    assert refused.returncode == 1 and refused.stdout == ""
    assert ("quota.yaml:1:1: error: plain Kubernetes objects that no environment of fluidgen.yaml lists: "
            "Argo CD would not apply them") in refused.stderr
    assert "quota.yaml: info" not in refused.stderr
    assert "values.yaml: info: not built" in refused.stderr and "kustomization.yaml: info: not built" in \
        refused.stderr
    plain = run_cli("build", "--env", "prod", str(app_dir), env={})
    assert plain.code == 0 and 'quota.yaml: info: not built: environment "prod"' in plain.err


def test_listed_manifests_hold_kubernetes_objects_only(tmp_path: Path) -> None:
    from tests.conftest import run_cli

    app_dir = project_with_manifests(tmp_path)
    (app_dir / "quota.yaml").write_text(yaml.safe_dump(QUOTA) + "---\nreplicas: 3\n")
    mixed = run_cli("build", "--env", "prod", str(app_dir), env={})
    assert mixed.code == 1 and mixed.out == ""
    assert ("quota.yaml:9:1: error: listed in environments.prod.manifests of fluidgen.yaml, but its document 2 is "
            "not a Kubernetes object (apiVersion, kind, metadata.name) or a list of them\n") in mixed.err
    shutil.copy(app_dir / "dataset.yaml", app_dir / "quota.yaml")
    spec = run_cli("build", "--env", "prod", str(app_dir), env={})
    assert spec.code == 1 and "; a fluidgen spec goes under specs" in spec.err
    (app_dir / "quota.yaml").write_text("")
    empty = run_cli("build", "--env", "prod", str(app_dir), env={})
    assert empty.code == 1 and "quota.yaml:1:1: error: listed in environments.prod.manifests of fluidgen.yaml, " \
        "but holds no Kubernetes object" in empty.err


def test_listed_manifests_stay_inside_and_never_shadow_a_generated_object(tmp_path: Path) -> None:
    from tests.conftest import run_cli

    app_dir = project_with_manifests(tmp_path, prod_lists="manifests: [../outside.yaml]")
    (tmp_path / "outside.yaml").write_text(yaml.safe_dump(QUOTA))
    outside = run_cli("build", "--env", "prod", str(app_dir), env={})
    assert outside.code == 1 and outside.out == "" and "outside.yaml" in outside.err
    app_dir = project_with_manifests(tmp_path / "clash")
    (app_dir / "quota.yaml").write_text("apiVersion: data.fluid.io/v1alpha1\nkind: JindoRuntime\n"
                                        "metadata: {name: imagenet}\nspec: {replicas: 1}\n")
    clash = run_cli("build", "--env", "prod", str(app_dir), env={})
    assert clash.code == 1 and clash.out == ""
    assert "JindoRuntime ml-prod/imagenet is both generated from a spec and in a plain manifest" in clash.err


KUBECTL_LIST = {"apiVersion": "v1", "kind": "List", "items": [QUOTA, {**QUOTA, "metadata": {"name": "cpus"}}]}


def test_a_list_of_objects_passes_through_as_its_items(tmp_path: Path) -> None:
    """kubectl's `kind: List` (no metadata.name) was a 'not built' note in Argo CD mode, so its
    objects were dropped with exit 0; kustomize applies a list kind's items, and so does the
    pass-through, beside the specs and in an environment's manifests:. Unlisted in a project, it
    is refused like any plain manifest."""
    from tests.conftest import run_cli

    app_dir = app(tmp_path)
    (app_dir / "quotas.yaml").write_text(yaml.safe_dump(KUBECTL_LIST))
    result = generate(app_dir)
    assert result.returncode == 0, result.stderr
    docs = list(yaml.safe_load_all(result.stdout))
    assert QUOTA in docs and {**QUOTA, "metadata": {"name": "cpus"}} in docs and "List" not in [d["kind"] for d in docs]
    assert "./quotas.yaml: info: passed through unchanged: 2 Kubernetes objects (Argo CD mode)" in result.stderr
    project = project_with_manifests(tmp_path / "p")
    (project / "quota.yaml").write_text(yaml.safe_dump(KUBECTL_LIST))
    listed = run_cli("build", "--env", "prod", str(project), env={})
    assert listed.code == 0 and [d["kind"] for d in yaml.safe_load_all(listed.out)].count("ResourceQuota") == 2
    (project / "more.yaml").write_text(yaml.safe_dump(KUBECTL_LIST))
    unlisted = generate(project, ARGOCD_ENV_FLUIDGEN_ENV="prod")
    assert unlisted.returncode == 1 and "more.yaml:1:1: error: plain Kubernetes objects that no environment" in \
        unlisted.stderr
    (app_dir / "quotas.yaml").write_text(yaml.safe_dump({**KUBECTL_LIST, "items": [QUOTA, {"replicas": 3}]}))
    mixed = generate(app_dir)
    assert mixed.returncode == 0 and "./quotas.yaml: info: not built" in mixed.stderr


# --- plugin selection, as Argo CD does it ---------------------------------------------------------
# Written from argo-cd v3.5.1: util/app/discovery/discovery.go (Discover asks the config management
# plugins before it looks for kustomization.yaml or Chart.yaml; cmpSupports decides per plugin) and
# cmpserver/plugin/plugin.go (isDiscoveryConfigured: discover.fileName, find.glob or find.command set;
# matchRepository: a find command supports the app when it prints anything, run in the app directory).

def _discovery_configured(spec: dict[str, object]) -> bool:
    discover = spec.get("discover") or {}
    assert isinstance(discover, dict)
    find = discover.get("find") or {}
    assert isinstance(find, dict)
    return bool(discover.get("fileName") or find.get("glob") or find.get("command"))


def _matches(spec: dict[str, object], app_dir: Path) -> bool:
    """matchRepository for the shapes fluidgen's plugin has used (find.command only)."""
    command = spec["discover"]["find"]["command"]  # type: ignore[index]
    found = subprocess.run(command, cwd=app_dir, capture_output=True, text=True, check=False)
    return found.stdout != ""


def argocd_uses_plugin(app_dir: Path, named: bool) -> bool:
    """cmpSupports: whether Argo CD builds `app_dir` with the plugin; `named` is an Application naming
    it (plugin.name: fluidgen-v1), else auto-detection (no name)."""
    spec = yaml.safe_load(PLUGIN.read_text())["spec"]
    if not _discovery_configured(spec):
        return named  # a plugin without discovery serves only Applications that name it
    return _matches(spec, app_dir)  # discovery configured: the rule decides, even for a named plugin


def test_an_application_naming_the_plugin_gets_it_whatever_its_specs_look_like(tmp_path: Path) -> None:
    """With a discover rule, a named plugin was refused wherever the rule's grep missed a spec fluidgen
    builds ("could not find cmp-server plugin with name fluidgen-v1 supporting the given repository")."""
    text = (EXAMPLES / "jindo-imagenet-oss.yaml").read_text()
    quoted = app(tmp_path / "quoted")
    (quoted / "dataset.yaml").write_text(text.replace("apiVersion: fluidgen.io/v1alpha1",
                                                      'apiVersion: "fluidgen.io/v1alpha1"'))
    bom = app(tmp_path / "bom")
    body = text[text.index("apiVersion:"):]  # the spec's first line is its apiVersion, after a BOM
    (bom / "dataset.yaml").write_text("\ufeff" + body, encoding="utf-8")
    for app_dir in (quoted, bom):
        assert generate(app_dir).returncode == 0  # fluidgen builds both
        assert argocd_uses_plugin(app_dir, named=True), app_dir.name


def test_auto_detection_never_takes_a_kustomize_application(tmp_path: Path) -> None:
    """Discover asks plugins first: a discover rule made a kustomize application with a spec in a
    sub-folder a fluidgen one, so its kustomization.yaml was never built."""
    kustomize_app = tmp_path / "kustomize-app"
    (kustomize_app / "specs").mkdir(parents=True)
    (kustomize_app / "kustomization.yaml").write_text("resources: [deploy.yaml]\n")
    (kustomize_app / "deploy.yaml").write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n")
    shutil.copy(EXAMPLES / "jindo-imagenet-oss.yaml", kustomize_app / "specs" / "dataset.yaml")
    assert not argocd_uses_plugin(kustomize_app, named=False)


def test_the_sidecars_own_fluidgen_env_comes_before_the_applications(tmp_path: Path) -> None:
    """deploy/argocd/README.md's order: a flag, FLUIDGEN_* (the sidecar's own env), ARGOCD_ENV_FLUIDGEN_*,
    PARAM_*. The generate command passed --namespace and --gitops built from the Application's values
    alone, so a sidecar-level FLUIDGEN_NAMESPACE or FLUIDGEN_GITOPS was never used."""
    app_dir = app(tmp_path)
    spec = app_dir / "dataset.yaml"
    spec.write_text(spec.read_text().replace("  namespace: default\n", ""))
    sidecar = generate(app_dir, FLUIDGEN_NAMESPACE="team-a", FLUIDGEN_GITOPS="none")
    assert sidecar.returncode == 0, sidecar.stderr
    docs = list(yaml.safe_load_all(sidecar.stdout))
    assert {d["metadata"]["namespace"] for d in docs} == {"team-a"}
    assert not any("argocd.argoproj.io/sync-wave" in (d["metadata"].get("annotations") or {}) for d in docs)
    both = generate(app_dir, FLUIDGEN_NAMESPACE="team-a", ARGOCD_ENV_FLUIDGEN_NAMESPACE="ml",
                    PARAM_NAMESPACE="other")
    assert {d["metadata"]["namespace"] for d in yaml.safe_load_all(both.stdout)} == {"team-a"}
    app_only = generate(app_dir, ARGOCD_ENV_FLUIDGEN_NAMESPACE="ml", PARAM_NAMESPACE="other")
    assert {d["metadata"]["namespace"] for d in yaml.safe_load_all(app_only.stdout)} == {"ml"}
