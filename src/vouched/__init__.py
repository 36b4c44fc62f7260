"""vouched: only vouched facts reach the model; everything else is typed silence.

The public face of the library. Everything is implemented in private modules
and re-exported here; importing vouched does no I/O and loads no optional
dependency.
"""

from vouched._answer import Answer, AnswerStatus
from vouched._exceptions import (
    AnswerRefusedError,
    InputError,
    MissingExtraError,
    PhraserError,
    PhraserHTTPError,
    PhraserResponseError,
    PhraserTimeoutError,
    VouchedError,
)
from vouched._fact import Fact, FactValue, SilenceReason
from vouched._factio import load_facts
from vouched._gate import (
    GateResult,
    Verdict,
    VerdictKind,
    VerdictReason,
    classify,
    grounding_rate,
    partition,
)
from vouched._onfail import OnFail
from vouched._phrasers import OpenAIChatPhraser, Phraser, TemplatePhraser
from vouched._policy import Policy
from vouched._prompt import Prompt, build_prompt
from vouched._time import Clock, SystemClock

__all__ = [
    "Answer",
    "AnswerRefusedError",
    "AnswerStatus",
    "Clock",
    "Fact",
    "FactValue",
    "GateResult",
    "InputError",
    "MissingExtraError",
    "OnFail",
    "OpenAIChatPhraser",
    "Phraser",
    "PhraserError",
    "PhraserHTTPError",
    "PhraserResponseError",
    "PhraserTimeoutError",
    "Policy",
    "Prompt",
    "SilenceReason",
    "SystemClock",
    "TemplatePhraser",
    "Verdict",
    "VerdictKind",
    "VerdictReason",
    "VouchedError",
    "build_prompt",
    "classify",
    "grounding_rate",
    "load_facts",
    "partition",
]

__version__ = "0.1.0"
