"""The console script ends in one line and a documented exit code whatever the machine does
(issue 38, item 5): stdout closed, a cached build written to /dev/full, Ctrl-C mid-build,
kubernetes-validate missing from the environment. Each runs the real console script
(fluidgen.__main__.console, the [project.scripts] entry) in a child process."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, ROOT

SPEC = str(EXAMPLES / "juicefs-mnist-pipeline.yaml")  # existingSecret only: builds with no variable set


def console(*args: str, cache: Path | None = None, python: list[str] | None = None, env: dict[str, str] | None = None,
            **kw: object) -> subprocess.Popen[str]:
    full = {k: v for k, v in os.environ.items() if not k.startswith("FLUIDGEN_")}
    full.update({"FLUIDGEN_CACHE_DIR": str(cache)} if cache else {"FLUIDGEN_NO_CACHE": "1"})
    full.update(env or {})
    command = [*(python or [sys.executable]), "-c", "from fluidgen.__main__ import console; console()", *args]
    return subprocess.Popen(command, env=full, text=True, stderr=subprocess.PIPE, **kw)  # type: ignore[call-overload]


def finish(proc: subprocess.Popen[str]) -> tuple[int, str]:
    _, err = proc.communicate(timeout=120)
    return proc.returncode, err


def one_clean_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert "Traceback" not in err and len(lines) == 1, err
    return lines[0]


def test_a_build_with_stdout_closed_says_so_in_one_line() -> None:
    code, err = finish(console("build", SPEC, stdout=subprocess.DEVNULL, close_fds=True,
                               preexec_fn=lambda: os.close(1)))
    assert code == 1
    assert one_clean_line(err) == "fluidgen: error: standard output is closed (output)"


def test_a_cached_build_with_stdout_closed_says_so_in_one_line(tmp_path: Path) -> None:
    assert finish(console("build", SPEC, cache=tmp_path, stdout=subprocess.DEVNULL))[0] == 0
    code, err = finish(console("build", SPEC, cache=tmp_path, stdout=subprocess.DEVNULL,
                               preexec_fn=lambda: os.close(1)))
    assert code == 1 and one_clean_line(err) == "fluidgen: error: standard output is closed (output)"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("cached", [True, False])
def test_a_build_written_to_a_full_device_says_so_in_one_line(tmp_path: Path, cached: bool) -> None:
    if cached:
        assert finish(console("build", SPEC, cache=tmp_path, stdout=subprocess.DEVNULL))[0] == 0
    with open("/dev/full", "w") as full:
        code, err = finish(console("build", SPEC, cache=tmp_path if cached else None, stdout=full))
    assert code == 1 and one_clean_line(err) == "fluidgen: error: No space left on device (output)"


def test_output_to_a_directory_needs_no_stdout(tmp_path: Path) -> None:
    code, err = finish(console("build", "-o", str(tmp_path / "out"), SPEC, stdout=subprocess.DEVNULL,
                               preexec_fn=lambda: os.close(1)))
    assert code == 0, err
    assert (tmp_path / "out" / "kustomization.yaml").is_file()


def test_ctrl_c_mid_build_exits_130_in_one_line(tmp_path: Path) -> None:
    """The build blocks reading a FIFO named on the command line; SIGINT arrives mid-read."""
    fifo = tmp_path / "spec.yaml"
    os.mkfifo(fifo)
    # A runner started in the background without job control (`cmd &` in a script) ignores SIGINT,
    # and a child inherits that, so Python would install no KeyboardInterrupt handler: the build
    # starts as from a terminal, with SIGINT at its default.
    proc = console("build", str(fifo), stdout=subprocess.PIPE,
                   preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    with open(fifo, "w") as writer:  # returns once the build has opened the FIFO to read it
        writer.write("apiVersion: fluidgen.io/v1alpha1\n")
        writer.flush()
        time.sleep(0.5)
        proc.send_signal(signal.SIGINT)
        code, err = finish(proc)
    assert code == 130 and one_clean_line(err) == "fluidgen: interrupted"


def test_ctrl_c_while_the_cache_serves_exits_130_in_one_line() -> None:
    """Outside the command (the cache lookup runs before click): the interrupt is raised there."""
    stub = ("from fluidgen.io import cache\n"
            "def serve(*args):\n    raise KeyboardInterrupt\n"
            "cache.serve = serve\nfrom fluidgen.__main__ import console; console()")
    proc = subprocess.run([sys.executable, "-c", stub, "build", SPEC], capture_output=True, text=True, check=False,
                          timeout=120, env={**os.environ, "FLUIDGEN_NO_CACHE": "1"})
    assert proc.returncode == 130 and one_clean_line(proc.stderr) == "fluidgen: interrupted"


def without_kubernetes_validate(tmp_path: Path) -> list[str]:
    """An interpreter that sees every installed package but kubernetes-validate (python -S with
    the packages linked one by one on PYTHONPATH)."""
    site = Path(sysconfig.get_paths()["purelib"])
    shadow = tmp_path / "site"
    shadow.mkdir()
    for entry in site.iterdir():
        if not entry.name.lower().startswith(("kubernetes_validate", "kubernetes-validate")) \
                and not entry.name.endswith(".pth"):
            (shadow / entry.name).symlink_to(entry)
    return [sys.executable, "-S", "-c", f"import sys; sys.path[:0] = [{str(ROOT)!r}, {str(shadow)!r}]; "
            "from fluidgen.__main__ import console; console()"]


def test_a_build_without_kubernetes_validate_says_what_to_install(tmp_path: Path) -> None:
    python = without_kubernetes_validate(tmp_path)
    proc = subprocess.run([*python, "build", SPEC], capture_output=True, text=True, check=False, timeout=120,
                          env={**os.environ, "FLUIDGEN_NO_CACHE": "1"})
    assert proc.returncode == 1, proc.stderr
    line = one_clean_line(proc.stderr)
    assert line.startswith("fluidgen: error: kubernetes-validate") and "pip install kubernetes-validate" in line
    assert proc.stdout == ""
