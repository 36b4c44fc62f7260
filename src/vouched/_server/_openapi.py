"""The OpenAPI 3.1 document of ``vouched serve``, generated from the route
table and its pydantic models."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

import vouched
from vouched import AnswerEventKind
from vouched._server._routes import ERRORS, ROUTES, SSE, Endpoint

__all__ = ["openapi_document"]

_REF = "#/components/schemas/{model}"


def _schemas() -> dict[str, Any]:
    models: set[type[BaseModel]] = set()
    for route in ROUTES:
        models |= {m for m in (route.request, route.response) if m is not None}
        if route.method == "POST":
            models.add(route.error)
    mode: Literal["validation"] = "validation"
    pairs = [(m, mode) for m in sorted(models, key=lambda m: m.__name__)]
    _, document = models_json_schema(pairs, ref_template=_REF)
    schemas: dict[str, Any] = document.get("$defs", {})
    return schemas


def _ref(model: type[BaseModel]) -> dict[str, str]:
    return {"$ref": _REF.format(model=model.__name__)}


def _events(data: dict[str, Any], kinds: Sequence[str]) -> dict[str, Any]:
    """One server-sent event: its data line is the JSON body."""
    properties: dict[str, Any] = {
        "data": {"type": "string", "contentMediaType": "application/json", "contentSchema": data}
    }
    if kinds is not None:
        properties["event"] = {"type": "string", "enum": list(kinds)}
    return {"type": "object", "required": ["data"], "properties": properties}


def _chunk_events() -> dict[str, Any]:
    """A ``chat.completion.chunk`` event: JSON data, or the last one, ``[DONE]``."""
    chunk = {"contentMediaType": "application/json", "contentSchema": {"type": "object"}}
    data = {"type": "string", "anyOf": [{"const": "[DONE]"}, chunk]}
    return {"type": "object", "required": ["data"], "properties": {"data": data}}


def _operation(route: Endpoint) -> dict[str, Any]:
    content: dict[str, Any] = {}
    if route.response is None:
        content[route.media] = {"schema": {"type": "string" if route.media != "application/json"
                                           else "object"}}  # fmt: skip
    elif route.media == SSE:
        kinds = [*map(str, AnswerEventKind), "error"]  # error: the deadline passed mid-stream
        content[SSE] = {"schema": _events(_ref(route.response), kinds)}
    else:
        content[route.media] = {"schema": _ref(route.response)}
        for media in route.alternatives:  # the chat route streams chat.completion.chunk events
            content[media] = {"schema": _chunk_events()}
    operation: dict[str, Any] = {
        "summary": route.summary,
        "responses": {"200": {"description": "OK", "content": content}},
    }
    if route.request is not None:
        operation["requestBody"] = {
            "required": True,
            "content": {"application/json": {"schema": _ref(route.request)}},
        }
        for status, description in {**ERRORS, **route.errors}.items():
            operation["responses"][status] = {
                "description": description,
                "content": {"application/json": {"schema": _ref(route.error)}},
            }
    return operation


def _names(schemas: dict[str, Any], model: str, field: str, names: Sequence[str]) -> None:
    """Name the choices of a config-named field (a catalog, a lexicon) in its schema."""
    prop = schemas[model]["properties"][field]
    choice = {"type": "string", "enum": sorted(names)}
    if "anyOf" in prop:
        prop["anyOf"] = [choice if p.get("type") == "string" else p for p in prop["anyOf"]]
    else:
        prop.update(choice)


def openapi_document(
    *, catalogs: Sequence[str] = (), lexicons: Sequence[str] = ()
) -> dict[str, Any]:
    """The OpenAPI document served at ``/openapi.json``; ``catalogs`` and
    ``lexicons`` are the names the service's config loaded."""
    schemas = _schemas()
    _names(schemas, "VerifyRequest", "catalog", catalogs)
    _names(schemas, "ScanRequest", "lexicon", lexicons)
    _names(schemas, "VouchedOptions", "lexicon", lexicons)
    paths: dict[str, Any] = {}
    for route in ROUTES:
        paths.setdefault(route.path, {})[route.method.lower()] = _operation(route)
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "vouched",
            "version": vouched.__version__,
            "description": "Only vouched facts reach the model; everything else is typed silence.",
        },
        "paths": paths,
        "components": {
            "schemas": schemas,
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
    }
