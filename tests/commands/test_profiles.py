"""fluidgen/commands/profiles.py: `profiles list` prints one line per bundled profile (name,
engine, the first sentence of its description, what it extends); `profiles show NAME` heads its
settings with the profile and its extends chain, prints list values as YAML blocks, and takes only
a bundled name (a path or an unknown name is a usage error, exit 2)."""

from __future__ import annotations

from tests.conftest import run_cli

BUNDLED = ["alluxio-default", "alluxio-imagenet", "efc-default", "goosefs-default", "jindo-default",
           "juicefs-default", "thin-default", "vineyard-default"]  # README, "Profiles"


def test_list_is_one_line_per_bundled_profile_with_engine_and_extends() -> None:
    result = run_cli("profiles", "list")
    assert result.code == 0 and result.err == ""
    lines = result.out.splitlines()
    assert [line.split()[0] for line in lines] == BUNDLED
    # the description's first sentence, its full stop dropped, then what the profile extends
    assert lines[1] == ("alluxio-imagenet       alluxio   The full Alluxio / FUSE / JVM tuning used to train ResNet-50 "
                        "on ImageNet from OSS with 4 nodes x 8 V100 (Fluid's \"accelerate machine learning training\" "
                        "guide) (extends alluxio-default)")
    assert lines[2] == ("efc-default            efc       Read-mostly NAS / CPFS datasets on EFCRuntime: longer "
                        "client-side inode metadata caching")
    assert lines[0].endswith(" as recommended for AlluxioFuse")  # one sentence, its full stop dropped, extends nothing


def test_show_heads_with_the_profile_and_its_chain_base_first() -> None:
    result = run_cli("profiles", "show", "alluxio-imagenet")
    assert result.code == 0 and result.err == ""
    head, chain = result.out.splitlines()[:2]
    assert head.startswith("# alluxio-imagenet (alluxio): The full Alluxio / FUSE / JVM tuning")
    assert chain == "# chain: alluxio-default -> alluxio-imagenet"


def test_show_prints_a_list_setting_as_a_yaml_block_under_its_path() -> None:
    result = run_cli("profiles", "show", "jindo-default")
    assert result.code == 0
    assert result.out.splitlines()[1] == "# chain: jindo-default"
    assert '\nfuse/args:\n- "-okernel_cache"\n- "-oattr_timeout=7200"\n' in result.out
    assert "\n  # from jindo-default: " in result.out


def test_show_refuses_a_path_to_a_profile_file() -> None:
    result = run_cli("profiles", "show", "./tuning/mine.yaml")
    assert result.code == 2 and result.out == ""
    assert result.err.splitlines()[-1] == \
        "Error: ./tuning/mine.yaml: give a bundled profile name (`fluidgen profiles list`)"


def test_show_of_an_unknown_name_suggests_the_nearest() -> None:
    result = run_cli("profiles", "show", "alluxio-imagenett")
    assert result.code == 2 and result.out == ""
    assert result.err.splitlines()[-1] == ('Error: no bundled profile "alluxio-imagenett"; did you mean '
                                           '"alluxio-imagenet"? (see `fluidgen profiles list`)')
