"""The hostile cases, as data: each class of issue 12, run through the CLI.

A case names the command line (``{tmp}`` is the case's own directory, ``{ex}``
the examples folder), the files to create first, what standard input holds,
and what must come back: the exit status and a piece of the one stderr line.
Files are created by :func:`make_files`; ``FIFO`` makes a FIFO with no writer.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Final

from factories import BERLIN_JSON

FIFO: Final = object()
BIG = 5 * 1024 * 1024

GOOD_FACT: Final = BERLIN_JSON
NOW: Final = "2026-11-29T12:05:00Z"


def fact(**changes: object) -> str:
    return json.dumps([{**GOOD_FACT, **changes}])


def fact_text(text: str, *, replacing: str | None = None) -> str:
    """A facts file whose fact has a raw JSON fragment spliced in (in place of
    the key ``replacing``: without it, the fragment comes on top)."""
    base = {k: v for k, v in GOOD_FACT.items() if k != replacing}
    return "[" + json.dumps(base)[:-1] + ", " + text + "}]"


@dataclass(frozen=True)
class Case:
    id: str
    argv: tuple[str, ...]
    status: int
    says: str = ""  # a piece of the one stderr line (empty: stderr must be empty)
    files: dict[str, object] = field(default_factory=dict)
    stdin: bytes = b""
    stdout_has: str = ""
    stdout_lacks: str = ""
    leaves_no: str = ""  # a path (relative to tmp) that must not exist afterwards


def _catalog_wide(columns: int, *, citation: bool = True) -> str:
    keys = ["workshop_code", "catalog_record_id"] if citation else ["workshop_code"]
    names = [*keys, *(f"c{n}" for n in range(columns))]
    row = ["WS1", "CAT-1"][: len(keys)]
    return ",".join(names) + "\n" + ",".join([*row, *("x" * columns)]) + "\n"


_VERIFY = ("verify", "--catalog", "{ex}/catalog.csv", "--contract", "{ex}/contract.toml")

CASES: Final = [
    # -- inputs that are not regular files -----------------------------------------
    Case("gate-dev-zero", ("gate", "/dev/zero"), 2, "/dev/zero: is a character device"),
    Case("gate-fifo", ("gate", "{tmp}/f"), 2, "is a FIFO", files={"f": FIFO}),
    Case(
        "scan-output-dev-zero",
        ("scan", "--facts", "{ex}/facts.json", "/dev/zero"),
        2,
        "character device",
    ),
    Case("scan-facts-fifo", ("scan", "--facts", "{tmp}/f", "-"), 2, "FIFO", files={"f": FIFO}),
    Case(
        "scan-lexicon-dev-zero",
        ("scan", "--facts", "{ex}/facts.json", "--lexicon", "/dev/zero", "{ex}/answer.txt"),
        2,
        "character device",
    ),
    Case(
        "scan-sources-fifo",
        ("scan", "--facts", "{ex}/facts.json", "--sources", "{tmp}/f", "{ex}/answer.txt"),
        2,
        "FIFO",
        files={"f": FIFO},
    ),
    Case("verify-claims-dev-zero", (*_VERIFY, "/dev/zero"), 2, "character device"),
    Case(
        "verify-catalog-fifo",
        ("verify", "--catalog", "{tmp}/f", "--contract", "{ex}/contract.toml", "{ex}/claims.jsonl"),
        2,
        "FIFO",
        files={"f": FIFO},
    ),
    Case(
        "verify-contract-dev-zero",
        ("verify", "--catalog", "{ex}/catalog.csv", "--contract", "/dev/zero", "{ex}/claims.jsonl"),
        2,
        "character device",
    ),
    Case(
        "replay-policy-dev-zero",
        ("replay", "--store", "{tmp}/s.db", "--policy", "/dev/zero"),
        2,
        "character device",
    ),
    Case("gate-directory", ("gate", "{tmp}"), 2, "directory"),
    Case(
        "gate-over-the-cap",
        ("gate", "--max-input-bytes", "1K", "{tmp}/big.json"),
        2,
        "larger than the 1,024-byte limit for facts",
        files={"big.json": json.dumps([GOOD_FACT] * 40)},
    ),
    Case(
        "gate-stdin-over-the-cap",
        ("gate", "--max-input-bytes", "1K", "-"),
        2,
        "<stdin>: larger than",
        stdin=json.dumps([GOOD_FACT] * 40).encode(),
    ),
    Case(
        "verify-claims-streamed-over-the-cap",
        (*_VERIFY, "--max-input-bytes", "300", "{tmp}/c.jsonl"),
        2,
        "larger than the 300-byte limit for claims",
        files={"c.jsonl": '{"model_output": "{}"}\n' * 40},
    ),
    # -- one JSON reader everywhere ------------------------------------------------
    Case(
        "gate-stdin-one-object",
        ("gate", "--json", "--now", NOW, "-"),
        0,
        stdin=json.dumps(GOOD_FACT).encode(),
        stdout_has='"grounded": 1',
    ),
    Case(
        "gate-one-object-over-lines",
        ("gate", "--json", "--now", NOW, "{tmp}/one.json"),
        0,
        files={"one.json": json.dumps(GOOD_FACT, indent=2)},
        stdout_has='"grounded": 1',
    ),
    Case(
        "scan-facts-from-stdin",
        ("scan", "--json", "--now", NOW, "--facts", "-", "{tmp}/out.txt"),
        0,
        stdin=json.dumps(GOOD_FACT).encode(),
        files={"out.txt": "Berlin is at 21.4 °C."},
        stdout_has='"passed": true',
    ),
    Case(
        "scan-stdin-twice",
        ("scan", "--facts", "-", "-"),
        2,
        "standard input (-) can be read only once",
    ),
    # -- catalog errors at load ----------------------------------------------------
    Case(
        "verify-bad-money-cell",
        (
            "verify",
            "--catalog",
            "{tmp}/cat.csv",
            "--contract",
            "{ex}/contract.toml",
            "{ex}/claims.jsonl",
        ),
        2,
        "cat.csv:3: fee_eur: '€19.90' is not a valid money value (column 5)",
        files={
            "cat.csv": "workshop_code,catalog_record_id,format,start_time,fee_eur,"
            "step_free_access\n"
            "WS101,CAT-001,In person,09:30,27.50,yes\n"
            "WS102,CAT-002,Online,18:00,€19.90,no\n"
        },
    ),
    # -- tracebacks where a line belongs -------------------------------------------
    Case(
        "gate-confidence-10e400",
        ("gate", "{tmp}/f.json"),
        2,
        "is out of bounds (at most 100 digits",
        files={"f.json": fact_text('"confidence": 1' + "0" * 400, replacing="confidence")},
    ),
    Case(
        "gate-ttl-1e20",
        ("gate", "{tmp}/f.json"),
        2,
        "ttl: duration of",
        files={"f.json": fact_text('"ttl": 1e20', replacing="ttl")},
    ),
    Case(
        "gate-ttl-huge-weeks",
        ("gate", "{tmp}/f.json"),
        2,
        "ttl: duration 'P9999999999W' is too long",
        files={"f.json": fact(ttl="P9999999999W")},
    ),
    Case(
        "gate-observed-year-1-with-offset",
        ("gate", "{tmp}/f.json"),
        2,
        "observed_at: 0001-01-01T00:00:00+01:00 is out of range",
        files={"f.json": fact(observed_at="0001-01-01T00:00:00+01:00")},
    ),
    Case(
        "gate-observed-year-9999-with-offset",
        ("gate", "{tmp}/f.json"),
        2,
        "out of range",
        files={"f.json": fact(observed_at="9999-12-31T23:30:00-01:00")},
    ),
    Case(
        "gate-now-year-9999",
        ("gate", "--now", "9999-12-31T23:59:59-05:00", "{ex}/facts.json"),
        2,
        "--now:",
    ),
    Case(
        "gate-now-at-the-end-of-time",
        ("gate", "--now", "9999-12-31T23:59:59Z", "{ex}/facts.json"),
        1,
        stdout_has="stale",
    ),
    Case(
        "replay-since-year-1",
        ("replay", "--store", "{tmp}/s.db", "--since", "0001-01-01T00:00:00+05:00"),
        2,
        "--since:",
    ),
    Case(
        "verify-contract-nested-deep",
        ("verify", "--catalog", "{ex}/catalog.csv", "--contract", "{tmp}/c.toml", "{ex}/c.jsonl"),
        2,
        "c.toml",
        files={"c.toml": "x = " + "[" * 50_000 + "]" * 50_000 + "\n"},
    ),
    Case(
        "gate-markup-and-escapes-in-a-table",
        ("gate", "--now", NOW, "{tmp}/f.json"),
        0,
        files={"f.json": fact(subject="[/] [bold]x\x1b[2J", attribute="[red]t[/red]")},
        stdout_has="[/] [bold]x",
        stdout_lacks="\x1b[2J",
    ),
    Case(
        "scan-markup-in-the-path",
        ("scan", "--now", NOW, "--facts", "{ex}/facts.json", "{tmp}/[red]x[bold].txt"),
        0,
        files={"[red]x[bold].txt": "Nothing to report."},
        stdout_has="[red]x[bold].txt",
    ),
    # -- error messages that echo the input ----------------------------------------
    Case(
        "gate-5MB-observed-at",
        ("gate", "{tmp}/f.json"),
        2,
        "(5,242,880 characters)",
        files={"f.json": fact(observed_at="2026-" + "1" * (BIG - 5))},
    ),
    Case(
        "gate-5MB-unknown-field",
        ("gate", "{tmp}/f.json"),
        2,
        "characters): unknown field",
        files={"f.json": fact_text(json.dumps("k" * BIG) + ": 1")},
    ),
    Case(
        "verify-5MB-contract-key",
        (*_VERIFY[:3], "--max-input-bytes", "10M", "--contract", "{tmp}/c.toml", "{ex}/c.jsonl"),
        2,
        "characters): unknown key",
        files={"c.toml": "k" * BIG + ' = "x"\n'},
    ),
    Case(
        "verify-5MB-normalizer-name",
        (*_VERIFY[:3], "--max-input-bytes", "10M", "--contract", "{tmp}/c.toml", "{ex}/c.jsonl"),
        2,
        "unknown normalizer",
        files={
            "c.toml": 'entity_field = "workshop_code"\ncitation_field = "catalog_record_id"\n'
            f'[attributes]\nfee_eur = "{"m" * BIG}"\n'
        },
    ),
    Case(
        "scan-5MB-lexicon-attribute",
        ("scan", "--facts", "{ex}/facts.json", "--lexicon", "{tmp}/l.json", "{ex}/answer.txt"),
        2,
        "l.json",
        files={"l.json": json.dumps({"attributes": {"a" * BIG: [""]}})},
    ),
    Case(
        "verify-catalog-missing-column-of-20000",
        (
            "verify",
            "--catalog",
            "{tmp}/wide.csv",
            "--contract",
            "{ex}/contract.toml",
            "{ex}/claims.jsonl",
        ),
        2,
        "and 19,991 more)",
        files={"wide.csv": _catalog_wide(20_000, citation=False)},
    ),
    # -- duplicate keys and wrong containers ---------------------------------------
    Case(
        "gate-repeated-subject",
        ("gate", "{tmp}/f.json"),
        2,
        "repeated key 'subject'",
        files={"f.json": fact_text('"subject": "Paris"')},
    ),
    Case(
        "gate-jsonl-repeated-key",
        ("gate", "{tmp}/f.jsonl"),
        2,
        "f.jsonl:1: invalid JSON: repeated key 'subject'",
        files={"f.jsonl": json.dumps(GOOD_FACT)[:-1] + ', "subject": "Paris"}\n'},
    ),
    Case(
        "scan-lexicon-repeated-key",
        ("scan", "--facts", "{ex}/facts.json", "--lexicon", "{tmp}/l.json", "{ex}/answer.txt"),
        2,
        "repeated key 'attributes'",
        files={"l.json": '{"attributes": {}, "attributes": {"humidity": ["humidity"]}}'},
    ),
    Case(
        "scan-lexicon-wrong-container",
        ("scan", "--facts", "{ex}/facts.json", "--lexicon", "{tmp}/l.json", "{ex}/answer.txt"),
        2,
        "attributes: must be an object",
        files={"l.json": '{"attributes": ["humidity", "wind"]}'},
    ),
    Case(
        "replay-policy-repeated-key",
        ("replay", "--store", "{tmp}/s.db", "--policy", "{tmp}/p.json"),
        2,
        "repeated key 'min_confidence'",
        files={"p.json": '{"min_confidence": 0.1, "min_confidence": 0.9}'},
    ),
    Case(
        "replay-policy-object-where-a-list-belongs",
        ("replay", "--store", "{tmp}/s.db", "--policy", "{tmp}/p.json"),
        2,
        "exact: must be a collection of attribute or subject names (a list, not an object)",
        files={"p.json": '{"exact": {"fee_eur": true}}'},
    ),
    Case(
        "verify-catalog-repeated-column",
        (
            "verify",
            "--catalog",
            "{tmp}/cat.csv",
            "--contract",
            "{ex}/contract.toml",
            "{ex}/claims.jsonl",
        ),
        2,
        "repeated column 'fee_eur' in the header",
        files={
            "cat.csv": "workshop_code,catalog_record_id,format,start_time,fee_eur,"
            "step_free_access,fee_eur\nWS101,CAT-001,In person,09:30,27.50,yes,1\n"
        },
    ),
    Case(
        "verify-claim-with-a-repeated-value-is-never-verified",
        (*_VERIFY, "--json", "{tmp}/c.jsonl"),
        1,
        files={
            "c.jsonl": json.dumps(
                {
                    "model_output": '{"workshop_code": "WS101", "attribute": "fee_eur", '
                    '"value": 99, "value": 27.5, "citation": "CAT-001"}'
                }
            )
            + "\n"
        },
        stdout_has="repeated key 'value'",
    ),
    # -- quadratic corners ----------------------------------------------------------
    Case(
        "verify-catalog-20000-columns-with-a-repeat-at-the-end",
        (
            "verify",
            "--catalog",
            "{tmp}/wide.csv",
            "--contract",
            "{ex}/contract.toml",
            "{ex}/claims.jsonl",
        ),
        2,
        "repeated column 'c0'",
        files={"wide.csv": _catalog_wide(20_000).replace("\n", ",c0\n", 1)},
    ),
    # -- outputs ----------------------------------------------------------------------
    Case(
        "verify-chart-onto-a-fifo-is-refused",
        (*_VERIFY, "--chart", "{tmp}/f", "{ex}/claims.jsonl"),
        2,
        "exists and is not a regular file",
        files={"f": FIFO},
    ),
]
