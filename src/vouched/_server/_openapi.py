"""The OpenAPI 3.1 document of ``vouched serve``, generated from the pydantic models."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

import vouched
from vouched import AnswerEventKind
from vouched._server._models import (
    AnswerRequest,
    AnswerResponse,
    ErrorResponse,
    GateRequest,
    GateResponse,
    HealthResponse,
    ScanRequest,
    ScanResponse,
    StreamEventBody,
    VerifyRequest,
    VerifyResponse,
)

__all__ = ["openapi_document"]

_REF = "#/components/schemas/{model}"

# path: (summary, request model, response model, media type of the 200 answer)
_POSTS: dict[str, tuple[str, type[BaseModel], type[BaseModel], str]] = {
    "/v1/gate": ("Classify facts: grounded, silent or violation", GateRequest, GateResponse,
                 "application/json"),
    "/v1/scan": ("Scan a model's output against gated facts", ScanRequest, ScanResponse,
                 "application/json"),
    "/v1/verify": ("Check structured claims against a catalog of the config", VerifyRequest,
                   VerifyResponse, "application/json"),
    "/v1/answer": ("Answer a question from the config's sources and phraser", AnswerRequest,
                   AnswerResponse, "application/json"),
    "/v1/answer/stream": ("The answer as server-sent events, each sentence after it passed",
                          AnswerRequest, StreamEventBody, "text/event-stream"),
}  # fmt: skip
_ERRORS = {
    "400": "The body is not JSON (code invalid_json)",
    "413": "The body is larger than the service takes (code body_too_large)",
    "422": "A field is wrong (code invalid_input; field names it)",
    "504": "No answer within the request deadline (code deadline_exceeded)",
}


def _schemas() -> dict[str, Any]:
    models = {m for _, request, response, _ in _POSTS.values() for m in (request, response)}
    models |= {ErrorResponse, HealthResponse}
    mode: Literal["validation"] = "validation"
    pairs = [(m, mode) for m in sorted(models, key=lambda m: m.__name__)]
    _, document = models_json_schema(pairs, ref_template=_REF)
    schemas: dict[str, Any] = document.get("$defs", {})
    return schemas


def _ref(model: type[BaseModel]) -> dict[str, str]:
    return {"$ref": _REF.format(model=model.__name__)}


def _operation(
    summary: str, request: type[BaseModel], response: type[BaseModel], media: str
) -> dict[str, Any]:
    schema: dict[str, Any] = _ref(response)
    if media == "text/event-stream":
        # One server-sent event: its event line is the kind, its data the JSON body.
        kinds = [str(kind) for kind in AnswerEventKind]
        schema = {
            "type": "object",
            "required": ["event", "data"],
            "properties": {
                "event": {"type": "string", "enum": kinds},
                "data": {
                    "type": "string",
                    "contentMediaType": "application/json",
                    "contentSchema": schema,
                },
            },
        }
    responses: dict[str, Any] = {
        "200": {"description": "OK", "content": {media: {"schema": schema}}}
    }
    for status, description in _ERRORS.items():
        responses[status] = {
            "description": description,
            "content": {"application/json": {"schema": _ref(ErrorResponse)}},
        }
    return {
        "summary": summary,
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": _ref(request)}},
        },
        "responses": responses,
    }


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
    paths: dict[str, Any] = {path: {"post": _operation(*spec)} for path, spec in _POSTS.items()}
    paths["/healthz"] = {
        "get": {
            "summary": "What the service loaded at start",
            "responses": {
                "200": {
                    "description": "OK",
                    "content": {"application/json": {"schema": _ref(HealthResponse)}},
                }
            },
        }
    }
    paths["/metrics"] = {
        "get": {
            "summary": "Prometheus metrics",
            "responses": {
                "200": {
                    "description": "Prometheus text exposition",
                    "content": {"text/plain": {"schema": {"type": "string"}}},
                }
            },
        }
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "vouched",
            "version": vouched.__version__,
            "description": "Only vouched facts reach the model; everything else is typed silence.",
        },
        "paths": paths,
        "components": {"schemas": schemas},
    }
