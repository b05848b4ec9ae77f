"""The catalogue's own CI (.github/workflows/catalogue.yml) and Netlify's deploy-preview command,
run here as they are written, on a copy of this repository with the frozen catalogue: they fail,
naming the file and line, on a pull request that breaks it (that they pass on the live catalogue is
tests/test_catalogue_live.py's)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml
from helpers import copy_project

from catalogue.config import PROJECT_ROOT

pytestmark = pytest.mark.slow  # the project copied and its workflow run as processes

WORKFLOW = PROJECT_ROOT / ".github" / "workflows" / "catalogue.yml"
INSTALL = re.compile(r"^pip install -r requirements\.txt$")  # this venv has them already


def workflow_commands() -> list[str]:
    """The shell commands of the workflow's steps, in order, but the install."""
    steps = yaml.safe_load(WORKFLOW.read_text())["jobs"]["check"]["steps"]
    commands = [step["run"].strip() for step in steps if "run" in step]
    assert any(INSTALL.match(command) for command in commands)
    return [command for command in commands if not INSTALL.match(command)]


def preview_commands() -> list[str]:
    """Netlify's deploy-preview build command, split where the shell would run each part."""
    settings = tomllib.loads((PROJECT_ROOT / "netlify.toml").read_text())
    parts = [part.strip() for part in settings["context"]["deploy-preview"]["command"].split("&&")]
    assert INSTALL.match(parts[0])
    return parts[1:]


def shell(project: Path, command: str) -> subprocess.CompletedProcess:
    """`command` as the CI's shell runs it, with this venv's Python as `python`."""
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    return subprocess.run(command, shell=True, cwd=project, env=env, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    return copy_project(tmp_path_factory.mktemp("ci") / "project")


def test_the_workflow_checks_strictly_as_annotations_then_builds():
    commands = workflow_commands()
    assert commands == ["python build.py check --strict --quiet --format github", "python build.py --no-images"]
    assert preview_commands()[0] == "python build.py check --strict --quiet"


def test_a_broken_paper_fails_the_workflow_and_the_preview_at_its_line(project, tmp_path):
    broken = copy_project(tmp_path / "broken", project)
    samba = broken / "content/papers/samba.md"
    text = samba.read_text()
    samba.write_text(text.replace("state-space-models", "state-space-modls", 1))
    line = next(n for n, row in enumerate(text.splitlines(), start=1) if row.startswith("tags:"))
    check = shell(broken, workflow_commands()[0])
    assert check.returncode == 1
    assert (f"::error file=content/papers/samba.md,line={line}::unknown tag `state-space-modls` — "
            "did you mean `state-space-models`?") in check.stdout.splitlines()
    preview = shell(broken, " && ".join(preview_commands()))
    assert preview.returncode == 1 and "Built " not in preview.stdout  # the check stopped it first
    assert f"content/papers/samba.md:{line}: unknown tag `state-space-modls`" in preview.stderr


def test_a_warning_fails_the_preview_too(project, tmp_path):
    """--strict: a tag no paper uses is a warning, and a deploy preview must not pass it."""
    warned = copy_project(tmp_path / "warned", project)
    taxonomy = warned / "content/taxonomy.yaml"
    taxonomy.write_text(taxonomy.read_text().replace(
        "tags:\n", "tags:\n  - id: unused-tag\n    label: Unused\n    description: No paper has it.\n", 1))
    preview = shell(warned, preview_commands()[0])
    assert preview.returncode == 1
    assert "warning: tag `unused-tag` is used by no paper" in preview.stderr
    assert "--strict: warnings count as errors." in preview.stderr

