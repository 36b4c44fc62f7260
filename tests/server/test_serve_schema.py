"""The OpenAPI document fuzzed with schemathesis against the real service.

Every operation, a bounded number of generated requests each; every response
must be documented (status, content type, headers), match its schema and
never be a 500. Schemathesis's default checks also ask that every request
the schema allows is accepted and every other one refused: those two are
excluded, because a JSON schema cannot say all the rules a fact obeys (a
silence carries no value; a lexicon phrase is not blank after trimming), and
the service answers them with a documented 422 naming the field.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis import checks

from vouched._server._app import create_app
from vouched._server._config import load_config
from vouched._server._openapi import openapi_document
from vouched.testing import FakeClock

from ._serving import EXAMPLES, NOW, serving

# The names the example config loads, as the service's own document has them.
schema = schemathesis.openapi.from_dict(
    openapi_document(catalogs=["workshops"], lexicons=["weather"])
)


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    app = create_app(load_config(EXAMPLES / "serve.toml"), clock=FakeClock(NOW))
    with serving(app) as url:
        yield url


@schema.parametrize()
@settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_every_operation_answers_within_its_schema(case: schemathesis.Case, base_url: str) -> None:
    case.call_and_validate(
        base_url=base_url,
        excluded_checks=[checks.positive_data_acceptance, checks.negative_data_rejection],
    )
