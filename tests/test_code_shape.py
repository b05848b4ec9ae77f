"""The package's shape, which reviewers asked for and nothing else would keep: modules of one
job (at most 400 lines), functions of a screen (at most 40), imports that run one way."""

import ast

import pytest

from catalogue.config import PROJECT_ROOT

PACKAGE = PROJECT_ROOT / "catalogue"
MAX_MODULE_LINES, MAX_FUNCTION_LINES = 400, 40
# Lower layers never import higher ones: shared knowledge at the bottom, the command line on top.
LAYERS = [
    {"report", "progress", "urls", "text", "files", "config", "ledger", "changeset", "state"},
    {"content"},
    {"importer", "relate"},
    {"pages"},
    {"render"},
    {"output"},
    {"builder", "pipeline"},
    {"serve", "check", "curate"},
    {"cli"},
]
RANK = {part: rank for rank, parts in enumerate(LAYERS) for part in parts}


def modules() -> dict[str, ast.Module]:
    return {".".join(path.relative_to(PROJECT_ROOT).with_suffix("").parts): ast.parse(path.read_text())
            for path in sorted(PACKAGE.rglob("*.py"))}


def imports_of(name: str, tree: ast.Module, typing: bool = False) -> set[str]:
    """The package's modules that `name` imports at run time (and, with `typing`, for type
    checking only)."""
    package = name.split(".")[:-1]
    typing_only = set() if typing else {id(node) for block in ast.walk(tree) if isinstance(block, ast.If)
                                        and getattr(block.test, "id", "") == "TYPE_CHECKING" for node in ast.walk(block)}
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level and id(node) not in typing_only:
            base = package[:len(package) - node.level + 1]
            target = ".".join(base + ([node.module] if node.module else []))
            found.update(f"{target}.{alias.name}" if not node.module else target for alias in node.names)
    return found


def layer(module: str) -> int:
    return RANK[module.split(".")[1]]


def test_no_module_is_over_400_lines_and_no_function_over_40():
    too_long = []
    for path in sorted(PACKAGE.rglob("*.py")):
        lines = path.read_text().count("\n")
        if lines > MAX_MODULE_LINES:
            too_long.append(f"{path.name}: {lines} lines")
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                size = node.end_lineno - node.lineno + 1
                if size > MAX_FUNCTION_LINES:
                    too_long.append(f"{path.name}:{node.lineno} {node.name}: {size} lines")
    assert too_long == []


@pytest.mark.parametrize("typing", [False, True], ids=["at run time", "for type checking too"])
def test_imports_run_one_way_with_no_cycle(typing):
    """No import climbs a layer or closes a circle, even one a type annotation alone makes: a
    module that needs a type from one that needs its own sits on the wrong side of a split."""
    trees = modules()
    known = set(trees) | {name.rsplit(".", 1)[0] for name in trees}
    graph = {name: {i for i in imports_of(name, tree, typing) if i in known} for name, tree in trees.items()}
    upward = [f"{name} imports {target}" for name, targets in graph.items() for target in targets
              if layer(target) > layer(name)]
    assert upward == []
    assert len(graph) > 30 and sum(map(len, graph.values())) > 60  # the walk saw the package
    visiting, done = set(), set()

    def visit(name: str, path: tuple) -> None:
        assert name not in visiting, f"import cycle: {' → '.join(path + (name,))}"
        if name not in done:
            visiting.add(name)
            for target in graph.get(name, ()):
                visit(target, path + (name,))
            visiting.discard(name)
            done.add(name)

    for name in graph:
        visit(name, ())
