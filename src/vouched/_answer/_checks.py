"""What checks one answer's texts: the scanner, the caller's numbers, the
extra checks; compiled once per answer, for all its attempts."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from vouched._answer._onfail import FindingLike
from vouched._answer._prompt import Prompt
from vouched._answer._result import finding_span
from vouched._fact import Fact
from vouched._policy import Policy
from vouched._replay._attempts import once_per_span
from vouched._scan._facts._lexicon import Lexicon
from vouched._scan._scanner import Scanner
from vouched._scan._stream import ScannedSentence

__all__ = ["Check", "Checks"]

Check = Callable[[str], Iterable[FindingLike]]
"""An extra check of a phrased text (a house rule, a PII detector): its
findings join the scanner's; one that raises is a guard error."""


@dataclass(frozen=True, slots=True)
class Checks:
    """Everything that checks one answer's texts, compiled once for all its
    attempts: the scanner (the caller's numbers read with it), the extra checks."""

    prompt: Prompt
    scanner: Scanner
    extra: tuple[Check, ...] = ()
    phrases: dict[str, str] = dataclasses.field(default_factory=dict)

    @classmethod
    def compile(
        cls,
        prompt: Prompt,
        silences: Sequence[Fact],
        *,
        caller: Sequence[str],
        lexicon: Lexicon | None,
        policy: Policy,
        extra: Sequence[Check] = (),
    ) -> Checks:
        scanner = Scanner(
            [*prompt.grounded, *silences],
            lexicon,
            # text values are what a model may quote
            sources=[f.value for f in prompt.grounded if isinstance(f.value, str)],
            question=prompt.question,
            policy=policy,
            caller=caller,
            now=prompt.now,  # "tomorrow" is the answer's tomorrow, not the first fact's
        )
        phrases = {
            attribute: said[0]
            for attribute, said in (lexicon.attributes if lexicon is not None else {}).items()
            if said
        }
        return cls(prompt, scanner, tuple(extra), phrases)

    def phrase(self, attribute: str) -> str:
        """An attribute as the answer's reader knows it: the lexicon's first phrase for it,
        else its name with spaces ("REB" -> "rebounds", "wind_speed" -> "wind speed")."""
        return self.phrases.get(attribute) or attribute.replace("_", " ")

    def whole(self, text: str) -> list[FindingLike]:
        """Every finding in a whole text (one per span and kind)."""
        report = self.scanner.scan(text)
        found = once_per_span([*self.echoes(text), *report.findings], finding_span)
        return [*found, *self._extra(text, 0)]

    def sentence(self, sentence: ScannedSentence) -> tuple[FindingLike, ...]:
        """What a streamed sentence holds besides the scanner's findings."""
        return (*self.echoes(sentence.text), *self._extra(sentence.text, sentence.start))

    def echoes(self, text: str) -> list[FindingLike]:
        """The caller's strings ``text`` repeats, with what no fact vouches for in them."""
        return list(self.scanner.echoes(text))

    def _extra(self, text: str, offset: int) -> list[FindingLike]:
        found: list[FindingLike] = []
        for check in self.extra:
            for finding in check(text):
                if offset and dataclasses.is_dataclass(finding):
                    moved = dataclasses.replace(
                        finding, start=finding.start + offset, end=finding.end + offset
                    )
                    found.append(moved)
                else:
                    found.append(finding)
        return found
