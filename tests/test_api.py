"""The Python API (issue 28): fluidgen.build and fluidgen.validate give what the command line
gives, in process, with located diagnostics; the public names and signatures are stable."""

from __future__ import annotations

import dataclasses
import inspect
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

import fluidgen
from fluidgen.api import MAPPING_FILE
from fluidgen.io import inputs as fluidgen_inputs
from tests.conftest import EXAMPLES, ROOT, run_cli
from tests.harness.golden import GOLDEN, args, params

# Changing a line here changes the public API: do it deliberately (README "Python API").
SIGNATURES = {
    "build": "(spec: 'SpecInput', *, overlays: 'Iterable[str | os.PathLike[str]]' = (), "
             "fluid_version: 'str | None' = None, namespace: 'str | None' = None, gitops: 'str | None' = None, "
             "env: 'Mapping[str, str] | None' = None, allow_read: 'Iterable[str | os.PathLike[str]]' = (), "
             "base_dir: 'str | os.PathLike[str] | None' = None) -> 'Build'",
    "validate": "(objects: 'Iterable[Mapping[str, Any]]', *, fluid_version: 'str | None' = None, "
                "crds: 'Iterable[str | os.PathLike[str]]' = (), lint: 'bool' = False) -> 'list[Diagnostic]'",
    "Diagnostic": "(severity: \"Literal['error', 'warning', 'info']\", message: 'str', file: 'str | None' = None, "
                  "line: 'int | None' = None, column: 'int | None' = None, path: 'str | None' = None, "
                  "rule: 'str | None' = None) -> None",
    "Build": "(objects: 'list[dict[str, Any]]' = <factory>, diagnostics: 'list[Diagnostic]' = <factory>) -> None",
    "FluidgenError": "(diagnostics: 'Sequence[Diagnostic]') -> 'None'",
    "health": "(obj: 'Mapping[str, Any]') -> 'Health'",
    # issue 40: fluidgen.diagnose and the values it returns
    "diagnose": "(objects: 'Iterable[Mapping[str, Any]]', specs: 'SpecInput | Iterable[str | os.PathLike[str]]', *, "
                "overlays: 'Iterable[str | os.PathLike[str]]' = (), fluid_version: 'str | None' = None, "
                "namespace: 'str | None' = None, gitops: 'str | None' = None, "
                "logs: 'Mapping[str, str] | None' = None) -> 'Diagnosis'",
    "Finding": "(family: 'str', objects: 'tuple[str, ...]', evidence: 'str', cause: 'str', fix: 'str', "
               "file: 'str | None' = None, line: 'int | None' = None, column: 'int | None' = None, "
               "path: 'str | None' = None, outside: 'str | None' = None) -> None",
    "Diagnosis": "(findings: 'list[Finding]' = <factory>, notes: 'list[str]' = <factory>, "
                 "errors: 'list[str]' = <factory>) -> None",
    "readiness": "(kind: 'str') -> 'Readiness'",
    "Health": "(status: 'Status', message: 'str') -> None",
    "Readiness": "(kind: 'str', success_condition: 'str | None', failure_condition: 'str | None', "
                 "kubectl_wait: 'str') -> None",
}


def test_public_names_and_signatures() -> None:
    assert fluidgen.__all__ == ["Build", "Diagnosis", "Diagnostic", "Finding", "FluidgenError", "Health", "Readiness",
                                "__version__", "build", "diagnose", "health", "readiness", "validate"]
    for name, signature in SIGNATURES.items():
        assert str(inspect.signature(getattr(fluidgen, name))) == signature, name
    members = {*dir(fluidgen.Build), *(f.name for f in dataclasses.fields(fluidgen.Build))}
    assert sorted(m for m in members if not m.startswith("_")) == [
        "diagnostics", "objects", "ok", "raise_for_errors", "yaml"]


def _api_call(cli_args: list[str]) -> tuple[Any, dict[str, Any]]:
    """The API call that matches a `fluidgen build` command line of the golden cases."""
    rest = cli_args[1:]
    kwargs: dict[str, Any] = {}
    layers: list[str] = []
    specs: list[str] = []
    names = {"--fluid-version": "fluid_version", "--gitops": "gitops", "-n": "namespace"}
    while rest:
        arg = rest.pop(0)
        if arg in names:
            kwargs[names[arg]] = rest.pop(0)
        elif arg == "-f":
            layers.append(rest.pop(0))
        else:
            specs.append(arg)
    if layers:
        return layers[0], {**kwargs, "overlays": layers[1:]}
    [spec] = specs
    return spec, kwargs


BUILD_CASES = [(n, v) for n, v in params("ok") if "--target" not in args(GOLDEN / "ok" / n, v)]


@pytest.mark.parametrize(("name", "version"), BUILD_CASES)
def test_build_equals_the_command_line_for_every_golden_case(name: str, version: str,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    case = GOLDEN / "ok" / name
    cli_args = args(case, version)
    cli = run_cli(*cli_args, env={}, cwd=case)
    assert cli.code == 0, cli.err
    monkeypatch.chdir(case)
    spec, kwargs = _api_call(cli_args)
    result = fluidgen.build(spec, env={}, **kwargs)
    assert result.ok and result.yaml() == cli.out
    assert result.objects == list(yaml.safe_load_all(cli.out))


@pytest.mark.parametrize("example", sorted(p.name for p in EXAMPLES.glob("*.yaml")))
def test_build_of_a_path_and_of_its_mapping_agree_with_the_command_line(example: str,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    cli = run_cli("build", str(EXAMPLES / example), env={})
    by_path = fluidgen.build(EXAMPLES / example, env={})
    assert by_path.ok and by_path.yaml() == cli.out
    monkeypatch.chdir(EXAMPLES)  # relative paths start here, but only base_dir= or allow_read= lets it read
    by_mapping = fluidgen.build(yaml.safe_load((EXAMPLES / example).read_text()), env={}, base_dir=EXAMPLES)
    assert by_mapping.objects == by_path.objects
    by_mapping = fluidgen.build(yaml.safe_load((EXAMPLES / example).read_text()), env={}, allow_read=[EXAMPLES])
    assert by_mapping.objects == by_path.objects
    # the same problems; only a file spec has a file and lines to point at
    assert [(d.severity, d.message, d.path, d.rule) for d in by_mapping.diagnostics] == [
        (d.severity, d.message, d.path, d.rule) for d in by_path.diagnostics]


def test_a_typo_in_a_mapping_is_located_by_its_key_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(EXAMPLES)
    spec = yaml.safe_load((EXAMPLES / "jindo-imagenet-oss.yaml").read_text())
    spec["runtime"]["replicaz"] = spec["runtime"].pop("replicas", 2)
    result = fluidgen.build(spec, env={})
    assert not result.ok and result.objects == []
    [error] = [d for d in result.diagnostics if d.severity == "error"]
    assert error.path == "runtime.replicaz" and "replicas" in error.message
    assert (error.file, error.line, error.column) == (None, None, None)


def test_a_mapping_is_compiled_as_given_never_written_as_yaml_and_read_back(monkeypatch: pytest.MonkeyPatch,
                                                                            tmp_path: Path) -> None:
    """Issue 39: the mapping is the document the compile reads. The YAML writer sorts keys, so
    a round trip through text would hand the compile labels in another order than the caller's
    (and than the same spec written as a file gives); and the reader never parses it."""
    parsed: list[str] = []
    real = fluidgen_inputs.load_text
    monkeypatch.setattr(fluidgen_inputs, "load_text", lambda name, *a, **k: parsed.append(name) or real(name, *a, **k))
    spec = yaml.safe_load((EXAMPLES / "jindo-imagenet-oss.yaml").read_text())
    spec["metadata"]["labels"] = {"zeta": "1", "alpha": "2"}  # not in sorted order
    (tmp_path / "spec.yaml").write_text(yaml.safe_dump(spec, sort_keys=False))
    shutil.copytree(EXAMPLES / "credentials", tmp_path / "credentials")
    env = {"OSS_ACCESS_KEY_ID": "id", "OSS_ACCESS_KEY_SECRET": "secret"}
    by_mapping = fluidgen.build(spec, env=env, base_dir=tmp_path)
    assert by_mapping.ok and not [name for name in parsed if name.endswith(MAPPING_FILE)]
    by_file = fluidgen.build(tmp_path / "spec.yaml", env=env)
    assert [list(o["metadata"]["labels"]) for o in by_mapping.objects] == \
        [list(o["metadata"]["labels"]) for o in by_file.objects] == [["zeta", "alpha"]] * len(by_file.objects)


def test_a_wrong_key_of_a_mapping_under_an_overlay_is_the_mappings_at_its_key_path(tmp_path: Path) -> None:
    """A mapping's keys are located by key path (no line) and stay the mapping's when an overlay
    file is merged onto it: the error never points at the overlay's lines."""
    spec = yaml.safe_load((EXAMPLES / "jindo-imagenet-oss.yaml").read_text())
    spec["runtime"]["replicaz"] = 3
    overlay = tmp_path / "prod.yaml"
    overlay.write_text("runtime:\n  replicas: 2\n")
    result = fluidgen.build(spec, overlays=[overlay], env={}, base_dir=EXAMPLES)
    [error] = [d for d in result.diagnostics if d.severity == "error"]
    assert (error.path, error.file, error.line, error.column) == ("runtime.replicaz", None, None, None)
    assert "replicas" in error.message


def test_a_lone_surrogate_in_a_mapping_is_refused_at_its_key_path() -> None:
    """No file can hold one (UTF-8 cannot, nor a YAML escape): refused where it is, as data a
    file could not hold always is, not as a YAML syntax error of text the caller never wrote."""
    spec = yaml.safe_load((EXAMPLES / "jindo-imagenet-oss.yaml").read_text())
    spec["metadata"]["labels"] = {"team": "a\ud800b"}
    [error] = fluidgen.build(spec, env={}, base_dir=EXAMPLES).diagnostics
    assert (error.severity, error.path, error.file) == ("error", "metadata.labels.team", None)
    assert "lone surrogate (U+D800) at character 2" in error.message


def test_errors_of_a_file_spec_carry_file_and_line(tmp_path: Path) -> None:
    text = (EXAMPLES / "jindo-imagenet-oss.yaml").read_text().replace("runtime:\n", "runtime:\n  replicaz: 3\n", 1)
    spec = tmp_path / "spec.yaml"
    spec.write_text(text)
    result = fluidgen.build(spec, env={})
    error = next(d for d in result.diagnostics if d.path == "runtime.replicaz")
    line = text.splitlines().index("  replicaz: 3") + 1
    assert (error.file, error.line, error.column, error.severity) == (str(spec), line, 3, "error")
    with pytest.raises(fluidgen.FluidgenError) as caught:
        result.raise_for_errors()
    assert caught.value.diagnostics == result.diagnostics
    assert f"{spec}:{line}:3: error: runtime.replicaz: " in str(caught.value)


def test_env_replaces_the_process_environment_for_credentials(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text((EXAMPLES / "jindo-imagenet-oss.yaml").read_text().replace(
        "      envFile: credentials/imagenet-oss.env",
        "      fromEnv: {fs.oss.accessKeyId: PIPE_ID, fs.oss.accessKeySecret: PIPE_KEY}"))
    missing = fluidgen.build(spec, env={})
    assert not missing.ok and any("PIPE_KEY" in d.message for d in missing.diagnostics)
    given = fluidgen.build(spec, env={"PIPE_ID": "the-id", "PIPE_KEY": "the-key"})
    given.raise_for_errors()
    [secret] = [o for o in given.objects if o["kind"] == "Secret"]
    assert sorted(secret["data"]) == ["fs.oss.accessKeyId", "fs.oss.accessKeySecret"]


def test_bad_arguments_raise_value_error() -> None:
    with pytest.raises(ValueError, match="fluid_version"):
        fluidgen.build(EXAMPLES / "jindo-imagenet-oss.yaml", fluid_version="v9")
    with pytest.raises(ValueError, match="namespace"):
        fluidgen.build(EXAMPLES / "jindo-imagenet-oss.yaml", namespace="Not_A_Label")


def test_a_bad_argument_is_named_as_the_argument_and_its_value_shown_as_given() -> None:
    """The settings module names the value by what the caller calls it; the API used to rewrite
    the message's flag names afterwards, which rewrote a value that held one too."""
    with pytest.raises(ValueError) as raised:
        fluidgen.build(EXAMPLES / "jindo-imagenet-oss.yaml", gitops="--namespace")
    assert str(raised.value).startswith("gitops: unknown GitOps mode '--namespace'; choose one of")


def test_validate_passes_a_build_and_finds_an_unknown_field() -> None:
    built = fluidgen.build(EXAMPLES / "alluxio-imagenet-oss.yaml", env={})
    assert [d for d in fluidgen.validate(built.objects, lint=True) if d.severity == "error"] == []
    broken = [dict(o) for o in built.objects]
    runtime = next(i for i, o in enumerate(broken) if o["kind"] == "AlluxioRuntime")
    broken[runtime] = {**broken[runtime], "spec": {**broken[runtime]["spec"], "replicaz": 2}}
    found = [d for d in fluidgen.validate(broken) if d.severity == "error"]
    assert [(d.file, d.path) for d in found] == [(f"objects[{runtime}]", "spec.replicaz")]


def test_no_subprocess_no_output_no_exit(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the API started a process")

    monkeypatch.setattr(subprocess, "Popen", refuse)
    good = fluidgen.build(EXAMPLES / "juicefs-mnist-pipeline.yaml", env={})
    bad = fluidgen.build(ROOT / "no-such-spec.yaml")
    fluidgen.validate(good.objects, lint=True)
    assert good.ok and not bad.ok and bad.diagnostics[0].file == str(ROOT / "no-such-spec.yaml")
    assert capsys.readouterr() == ("", "")


def test_the_api_path_loads_nothing_of_the_command_line() -> None:
    code = ("import sys, fluidgen; assert 'fluidgen.api' not in sys.modules; "
            "b = fluidgen.build(sys.argv[1], env={}); assert b.ok; "
            "print(sorted(m for m in sys.modules if m in ('click', 'fluidgen.io.cache', 'fluidgen.cli', "
            "'fluidgen.commands.build')))")
    import sys

    proc = subprocess.run([sys.executable, "-c", code, str(EXAMPLES / "jindo-imagenet-oss.yaml")],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0 and proc.stdout == "[]\n", proc.stderr


def test_naming_the_result_types_loads_no_compiler() -> None:
    """`except fluidgen.FluidgenError` and annotations with Build/Diagnostic cost no pydantic."""
    code = ("import sys, fluidgen; fluidgen.FluidgenError, fluidgen.Build, fluidgen.Diagnostic; "
            "print(sorted(m for m in sys.modules if m in ('pydantic', 'fluidgen.compile.pipeline', 'fluidgen.api')))")
    import sys

    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert proc.returncode == 0 and proc.stdout == "[]\n", proc.stderr
    assert fluidgen.FluidgenError is __import__("fluidgen.api").api.FluidgenError
