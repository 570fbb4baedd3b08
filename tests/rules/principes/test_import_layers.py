"""The PRINCIPES rules import downward only (issue 21): the import graph of ``rules/principes`` is acyclic, every
module sits in one of the layers below and imports only from its own layer or lower ones, and no import hides
inside a function.

The graph is read from the source with ``ast`` (module-level and function-level imports both), so it is the code
as written, not what happens to be loaded.
"""

from __future__ import annotations

import ast
from fnmatch import fnmatch
from pathlib import Path

import rules.principes

PACKAGE = "rules.principes"
ROOT = Path(rules.principes.__file__).parent

#: bottom to top; a module may import modules of its own layer or of a lower one. Names are relative to
#: ``rules.principes`` ("" is the package itself); ``*`` matches the rest of a name.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("vocabulary: the effect notation and the state's schema", ("effects", "schema")),
    ("components: the data files", ("data",)),
    ("position: setup, control, Might, views of P1", ("state",)),
    ("shared mechanics: the apply context, names, notation", ("play.common", "play.ending", "play.naming")),
    ("decisions asked together, sealed (option together)", ("play.together",)),
    ("the effect interpreter and the modifiers in force", ("play.effects_engine",)),
    ("rules that cards and tiles change directly", ("play.princes", "play.princesses")),
    ("Court cards played for their text, tiles taken", ("play.cards",)),
    (
        "the actions' own rules, Councils, dynasties, free actions",
        (
            "play.building",
            "play.progress",
            "play.taxes",
            "play.assembly",
            "play.council",
            "play.dynasty",
            "play.currency",
        ),
    ),
    ("battles", ("play.battle",)),
    ("the Movement action, passage", ("play.movement",)),
    ("Neighbour armies", ("play.neighbours",)),
    (
        "armies moved by players: Politics, Invaders, neutrals",
        ("play.politics", "play.invaders", "play.neutrals"),
    ),
    ("History cards and their icons", ("play.history",)),
    ("the Round: actions performed, the Round machine", ("play.actions", "play.flow")),
    ("AI players (from a seat's view)", ("play.ai*", "play.history_ai")),
    ("notation, labels, refusals, views", ("play.notation", "play.labels", "play.refusals", "play.views")),
    ("standing orders (from a seat's view)", ("play.standing",)),
    ("a results report (win rates by principality, from stored results)", ("report",)),
    ("the decisions table", ("play.decisions",)),
    ("a player's own turn answered ahead (its preview)", ("play.turn_ahead",)),
    ("entry points", ("play.notes", "play", "")),
)
#: function-level imports allowed, as (module, imported module): none; an entry needs its reason beside it
FUNCTION_LEVEL_ALLOWED: set[tuple[str, str]] = set()


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _imports(module: str, path: Path, known: set[str]) -> list[tuple[str, bool]]:
    """(imported module of the package, at module level?) for every import in the file."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top = {id(node) for node in tree.body}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = [p for p in package.split(".") if p]
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            elif node.module and node.module.startswith(PACKAGE):
                target = node.module[len(PACKAGE) :].lstrip(".")
            else:
                continue
            targets = [f"{target}.{alias.name}".lstrip(".") for alias in node.names]
            names = [name if name in known else target for name in targets]
        elif isinstance(node, ast.Import):
            names = [
                alias.name[len(PACKAGE) :].lstrip(".")
                for alias in node.names
                if alias.name.startswith(PACKAGE)
            ]
        else:
            continue
        found += [(name, id(node) in top) for name in names if name != module]
    return found


def _graph() -> tuple[dict[str, set[str]], list[tuple[str, str]]]:
    modules = _modules()
    graph: dict[str, set[str]] = {module: set() for module in modules}
    inner = []
    for module, path in modules.items():
        for target, at_top in _imports(module, path, set(modules)):
            assert target in modules, f"{module} imports {target}, which is not a module of the package"
            graph[module].add(target)
            if not at_top:
                inner.append((module, target))
    return graph, inner


def _layer(module: str) -> int:
    matches = [index for index, (_, names) in enumerate(LAYERS) for name in names if fnmatch(module, name)]
    assert matches, f"rules.principes.{module} is in no layer: add it to LAYERS in {__file__}"
    assert len(set(matches)) == 1, f"{module} matches several layers"
    return matches[0]


def test_every_module_has_one_layer() -> None:
    for module in _modules():
        _layer(module)


def test_imports_go_down_the_layers() -> None:
    graph, _ = _graph()
    upward = [
        f"{module} ({LAYERS[_layer(module)][0]}) imports {target} ({LAYERS[_layer(target)][0]})"
        for module, targets in graph.items()
        for target in sorted(targets)
        if _layer(target) > _layer(module) and not module.startswith(f"{target}.")
    ]
    assert not upward, "imports that go up:\n" + "\n".join(upward)


def test_the_import_graph_is_acyclic() -> None:
    graph, _ = _graph()
    state: dict[str, str] = {}
    path: list[str] = []

    def visit(module: str) -> None:
        state[module] = "open"
        path.append(module)
        for target in sorted(graph[module]):
            if module.startswith(f"{target}."):
                continue  # a submodule's parent package runs first by Python's own rule: no cycle of ours
            if state.get(target) == "open":
                cycle = path[path.index(target) :] + [target]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if target not in state:
                visit(target)
        path.pop()
        state[module] = "done"

    for module in sorted(graph):
        if module not in state:
            visit(module)


def test_no_import_hides_in_a_function() -> None:
    _, inner = _graph()
    assert set(inner) <= FUNCTION_LEVEL_ALLOWED, f"function-level imports: {sorted(set(inner))}"


def test_the_effect_interpreter_imports_nothing_above_the_shared_mechanics() -> None:
    graph, _ = _graph()
    interpreter = _layer("play.effects_engine")
    assert all(_layer(target) < interpreter for target in graph["play.effects_engine"])
    assert "data" not in graph["effects"] and graph["effects"] <= {"schema"}


def test_the_layer_check_sees_an_upward_import(tmp_path: Path) -> None:
    """The parser finds relative imports inside functions too (the check is not vacuous)."""
    source = "def f():\n    from .actions import begin\n    from ..state import controllers\n"
    (tmp_path / "probe.py").write_text(source)
    found = _imports("play.probe", tmp_path / "probe.py", {"play.actions", "state"})
    assert found == [("play.actions", False), ("state", False)]
