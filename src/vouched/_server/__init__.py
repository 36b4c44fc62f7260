"""``vouched serve``: the gate, the scanner, the verifier and answers over HTTP.

Needs the ``server`` extra (Starlette, uvicorn, prometheus-client); nothing
here is imported by ``import vouched``. Sits above the public face: it uses
only what ``vouched`` exports, plus the CLI's wording for input errors.

- ``_config``: the TOML config file, read and checked once at start.
- ``_models``: request and response bodies (pydantic), the OpenAPI schemas.
- ``_openapi``: the OpenAPI document, generated from the models.
- ``_app``: the Starlette app: endpoints, body caps, deadlines, metrics.
"""
