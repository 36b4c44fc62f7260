"""The constructors type checkers read (``__init__`` under ``if TYPE_CHECKING:``
in ``Fact`` and ``Policy``) name exactly the fields run time accepts, with the
same defaults, and what they let through is what run time takes."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
from datetime import timedelta
from decimal import Decimal
from typing import Any

import pytest

from vouched import Fact, Policy


def _typed_init(cls: type) -> dict[str, Any]:
    """``{parameter: default}`` of the class's ``__init__`` written for type
    checkers (``inspect.Parameter.empty`` when required)."""
    module = importlib.import_module(cls.__module__)
    tree = ast.parse(inspect.getsource(module))
    (node,) = (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name == cls.__name__)
    (guard,) = (
        n for n in node.body if isinstance(n, ast.If) and ast.unparse(n.test) == "TYPE_CHECKING"
    )
    (init,) = (n for n in guard.body if isinstance(n, ast.FunctionDef) and n.name == "__init__")
    assert not init.args.args[1:], "keyword-only, as run time"
    namespace = vars(module)
    return {
        arg.arg: inspect.Parameter.empty
        if default is None
        # A default is a name or a literal of the module (frozenset(), DEFAULT_TTL).
        else eval(ast.unparse(default), namespace)  # noqa: S307 - our own source, in a test
        for arg, default in zip(init.args.kwonlyargs, init.args.kw_defaults, strict=True)
    }


def test_fact_typed_init_names_every_field_with_its_default() -> None:
    runtime = {
        name: inspect.Parameter.empty if info.is_required() else info.default
        for name, info in Fact.model_fields.items()
    }
    assert _typed_init(Fact) == runtime


def test_policy_typed_init_names_every_field_with_its_default() -> None:
    runtime = {}
    for f in dataclasses.fields(Policy):
        if f.default_factory is not dataclasses.MISSING:
            runtime[f.name] = f.default_factory()
        else:
            runtime[f.name] = f.default
    assert _typed_init(Policy) == runtime


@pytest.mark.parametrize(
    ("ttl", "seconds"),
    [(900, 900), (90.5, 90.5), (Decimal("60"), 60), ("PT15M", 900), (timedelta(minutes=1), 60)],
)
def test_fact_accepts_every_duration_its_type_names(ttl: Any, seconds: float) -> None:
    fact = Fact(subject="Berlin", attribute="temperature", value=21.4, ttl=ttl,
                observed_at="2026-11-29T12:00:00Z")  # fmt: skip
    assert fact.ttl == timedelta(seconds=seconds)
    assert fact.value == Decimal("21.4")


def test_policy_accepts_durations_and_any_collection_of_names() -> None:
    policy = Policy(default_ttl="PT30M", max_ttl=3600, demoted=["uv_index"], exact=("port",))
    assert policy.default_ttl == timedelta(minutes=30)
    assert policy.max_ttl == timedelta(hours=1)
    assert policy.demoted == frozenset({"uv_index"})
    assert policy.exact == frozenset({"port"})
