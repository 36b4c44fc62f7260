"""A fake model keyed on the prompt: the documentation's examples (and users' tests)
answer model calls from a table, so they run offline and say the same every time."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence

from vouched._answer._prompt import Prompt
from vouched._exceptions import PhraserError

__all__ = ["KeyedPhraser"]


class KeyedPhraser:
    """A :class:`vouched.Phraser` that answers each prompt from a table keyed on its
    question (the user's words, stripped).

    A value is the answer's text, or a sequence of texts for the first attempt and each
    retry (a retry's prompt quotes the findings of the attempt before it). A question
    the table does not hold raises :class:`vouched.PhraserError` naming it, so an
    example never gets an answer it did not write. Every prompt is kept in
    ``prompts``.

    >>> from vouched import Fact, Grounder
    >>> from vouched.testing import FakeClock, KeyedPhraser
    >>> fact = Fact(subject="Berlin", attribute="temperature", value=4.3, unit="°C",
    ...             source="weather", observed_at="2026-11-29T11:58:00Z", ttl=900)
    >>> model = KeyedPhraser({"How warm is Berlin?": ["It is 9 °C.", "It is 4.3 °C."]})
    >>> grounder = Grounder([], phraser=model, clock=FakeClock("2026-11-29T12:00:00Z"))
    >>> answer = grounder.answer_sync("How warm is Berlin?", facts=[fact])
    >>> answer.text, answer.attempts
    ('It is 4.3 °C.', 2)
    """

    name = "keyed"

    def __init__(self, answers: Mapping[str, str | Sequence[str]], *, piece_size: int = 5) -> None:
        self._answers = {
            question.strip(): (value,) if isinstance(value, str) else tuple(value)
            for question, value in answers.items()
        }
        if any(not texts for texts in self._answers.values()):
            raise ValueError("every question needs at least one answer")
        if piece_size < 1:
            raise ValueError("piece_size must be at least 1")
        self.piece_size = piece_size
        self.prompts: list[Prompt] = []

    async def phrase(self, prompt: Prompt) -> str:
        question = prompt.question.strip()
        texts = self._answers.get(question)
        if texts is None:
            known = ", ".join(repr(q) for q in sorted(self._answers))
            raise PhraserError(f"no answer for the question {question!r} (known: {known})")
        attempt = sum(p.question.strip() == question for p in self.prompts)
        self.prompts.append(prompt)
        return texts[min(attempt, len(texts) - 1)]

    async def phrase_stream(self, prompt: Prompt) -> AsyncIterator[str]:
        text = await self.phrase(prompt)
        for start in range(0, len(text), self.piece_size):
            yield text[start : start + self.piece_size]

    def __repr__(self) -> str:
        return f"KeyedPhraser({len(self._answers)} questions, {len(self.prompts)} calls)"
