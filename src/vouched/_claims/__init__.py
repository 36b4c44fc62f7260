"""Beside the flow: structured claims checked against a trusted catalog.

Takes a model's raw output (JSON claims), a ``Catalog`` and a ``Contract``;
returns a frozen ``ClaimResult`` per claim with a ``ClaimStatus`` code, in
the gate order of DESIGN.md (invalid_json ... verified). Nothing on the
answer path imports this stage.

- ``_contract``: the ``Contract`` (entity and citation fields, the attribute allowlist).
- ``_normalize``: the normalizers, one per attribute type, run on both sides.
- ``_catalog``: the ``Catalog``: rows by entity, with a content-hash version.
- ``_verify``: ``verify_output`` and ``verify_answer``.
- ``_metrics``: claim tallies and rates; ``_chart``: their bar chart (``vouched[chart]``).

Seams: normalizers are plain callables named in the contract.
"""
