"""The hooks in .pre-commit-hooks.yaml, driven through the real pre-commit in a scratch repo.

pre-commit installs fluidgen from this repository into its own environment the first time
(a pip install from the package registry), so the first test takes a while.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, ROOT, run_process

pytestmark = pytest.mark.slow  # a real pre-commit installs fluidgen into its own environment


def _run(cmd: list[str], cwd: Path, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PRE_COMMIT_HOME": str(home), "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, check=False, timeout=900)


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A committed copy of this repository (try-repo needs a git repository)."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    repo = tmp_path_factory.mktemp("hook-repo")
    ignore = shutil.ignore_patterns(".git", ".venv", "__pycache__", ".*_cache", ".hypothesis", "*.egg-info")
    shutil.copytree(ROOT, repo, dirs_exist_ok=True, ignore=ignore)
    home = repo.parent / "home"
    for cmd in (["git", "init", "-q"], ["git", "add", "-A"], ["git", "commit", "-qm", "hooks"]):
        assert _run(cmd, repo, home).returncode == 0
    return repo


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("project")
    shutil.copytree(EXAMPLES / "credentials", work / "credentials")
    shutil.copy(EXAMPLES / "jindo-imagenet-oss.yaml", work / "good.yaml")
    (work / "broken.yaml").write_text((EXAMPLES / "jindo-imagenet-oss.yaml").read_text()
                                      .replace("quota: 180G", "quota: 180GB"))
    (work / "values.yaml").write_text("image: {tag: '1.0'}\n")
    for cmd in (["git", "init", "-q"], ["git", "add", "-A"]):
        assert _run(cmd, work, work / ".home").returncode == 0
    return work


def pre_commit(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return _run([sys.executable, "-m", "pre_commit", *args], cwd, cwd.parent / "pre-commit-home")


def test_validate_hook_passes_a_good_spec(hook_repo: Path, project: Path) -> None:
    result = pre_commit("try-repo", str(hook_repo), "fluidgen-validate", "--files", "good.yaml", "values.yaml",
                        cwd=project)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Passed" in result.stdout


def test_validate_hook_fails_a_broken_spec(hook_repo: Path, project: Path) -> None:
    result = pre_commit("try-repo", str(hook_repo), "fluidgen-validate", "--files", "broken.yaml", cwd=project)
    assert result.returncode == 1
    assert "Failed" in result.stdout and 'broken.yaml:23:7: error' in result.stdout and "180GB" in result.stdout


def test_rendered_hook_detects_drift(hook_repo: Path, project: Path) -> None:
    assert run_process("build", "good.yaml", "-o", "rendered", "--write-secrets", cwd=project, clean=False).code == 0
    rev = _run(["git", "rev-parse", "HEAD"], hook_repo, project).stdout.strip()
    (project / ".pre-commit-config.yaml").write_text(
        f"repos:\n- repo: {hook_repo}\n  rev: {rev}\n  hooks:\n  - id: fluidgen-rendered\n"
        "    args: [good.yaml, rendered]\n")
    assert _run(["git", "add", "-A"], project, project).returncode == 0
    fresh = pre_commit("run", "fluidgen-rendered", "--all-files", cwd=project)
    assert fresh.returncode == 0, fresh.stdout + fresh.stderr
    good = project / "good.yaml"
    good.write_text(good.read_text().replace("replicas: 4", "replicas: 8"))
    stale = pre_commit("run", "fluidgen-rendered", "--all-files", cwd=project)
    assert stale.returncode == 1 and "+  replicas: 8" in stale.stdout


def test_readme_remote_form_runs_with_a_pinned_commit(hook_repo: Path, tmp_path: Path) -> None:
    """README's other form (the verbatim `repo: local` block runs in tests/features/test_new_user_round_two.py):
    pre-commit installs fluidgen itself from the repository, `rev:` a full commit id, the hooks as
    README's sentence lists them; only the URL is the reader's. Both hooks pass."""
    import re

    import yaml

    readme = " ".join((ROOT / "README.md").read_text().split())
    said = re.search(r"pin `rev:` to a full commit id .*?with `hooks: (\[.*?\])`", readme)
    assert said is not None, "README's sentence on the remote form moved: follow it here"
    rev = _run(["git", "rev-parse", "HEAD"], hook_repo, tmp_path).stdout.strip()
    assert re.fullmatch(r"[0-9a-f]{40}", rev)
    snippet = {"repos": [{"repo": str(hook_repo), "rev": rev, "hooks": yaml.safe_load(said.group(1))}]}
    project = tmp_path / "project"
    (project / "specs").mkdir(parents=True)
    spec = yaml.safe_load((EXAMPLES / "jindo-imagenet-oss.yaml").read_text())
    spec["source"][0]["credentials"] = {"existingSecret": {"name": "oss-keys", "keys": [
        "fs.oss.accessKeyId", "fs.oss.accessKeySecret"]}}  # a project that keeps no credential in git
    (project / "specs" / "imagenet.yaml").write_text(yaml.safe_dump(spec))
    (project / ".pre-commit-config.yaml").write_text(yaml.safe_dump(snippet))
    for cmd in (["git", "init", "-q"], [sys.executable, "-m", "fluidgen", "build", "specs/", "-o", "rendered"],
                ["git", "add", "-A"]):
        assert _run(cmd, project, tmp_path).returncode == 0, cmd
    result = pre_commit("run", "--all-files", cwd=project)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count("Passed") == 2, result.stdout
