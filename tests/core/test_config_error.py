"""One error for bad configuration: ConfigError names the setting and what it accepts."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from vouched import (
    BreakerSettings,
    CacheSettings,
    ConfigError,
    Grounder,
    GuardedSource,
    OpenAIChatPhraser,
    Policy,
    VouchedError,
    gather_sync,
)
from vouched.testing import ScriptedSource

SOURCE = ScriptedSource("s", [[]])

BAD_SETTINGS: dict[str, tuple[Callable[[], object], str, str]] = {
    # id: (what builds the bad configuration, the setting named, the accepted values named)
    "policy confidence": (
        lambda: Policy(cardinal_confidence=1.2),
        "Policy.cardinal_confidence",
        "a number between 0 and 1",
    ),
    "policy confidence type": (
        lambda: Policy(min_confidence="high"),  # type: ignore[arg-type]  # the wrong type on purpose
        "Policy.min_confidence",
        "a number between 0 and 1",
    ),
    "policy duration": (
        lambda: Policy(default_ttl="soon"),  # type: ignore[arg-type]  # not a duration on purpose
        "Policy.default_ttl",
        "ISO 8601 duration",
    ),
    "policy names": (
        lambda: Policy(demoted="uv_index"),  # type: ignore[arg-type]  # one string, not names
        "Policy.demoted",
        "a collection of attribute or subject names",
    ),
    "policy unknown setting": (
        lambda: Policy.from_json({"default_tll": 60}),
        "Policy setting default_tll",
        "one of cardinal_confidence, default_ttl",
    ),
    "on_fail": (
        lambda: Grounder([SOURCE], on_fail="substitute"),
        "on_fail",
        "one of retry, partial, refuse",
    ),
    "grounder deadline": (
        lambda: Grounder([SOURCE], deadline=0),
        "Grounder deadline",
        "positive seconds",
    ),
    "grounder phraser": (
        lambda: Grounder([SOURCE], phraser=42),  # type: ignore[arg-type]  # not a phraser on purpose
        "phraser",
        "an object with phrase() or a callable",
    ),
    "phraser timeout": (
        lambda: OpenAIChatPhraser("http://127.0.0.1:9", model="m", timeout=-1),
        "OpenAIChatPhraser timeout",
        "positive seconds",
    ),
    "guarded deadline": (
        lambda: GuardedSource(SOURCE, deadline=0),
        "GuardedSource deadline",
        "positive seconds",
    ),
    "guarded max_in_flight": (
        lambda: GuardedSource(SOURCE, max_in_flight=0),
        "GuardedSource max_in_flight",
        "a whole number >= 1",
    ),
    "cache": (
        lambda: CacheSettings(keep_for=-1),
        "CacheSettings.keep_for",
        "seconds >= 0",
    ),
    "breaker": (
        lambda: BreakerSettings(fail_max=0),
        "BreakerSettings.fail_max",
        "a whole number >= 1",
    ),
    "gather deadline": (
        lambda: gather_sync([SOURCE], {}, deadline=-2),
        "gather deadline",
        "positive seconds",
    ),
}


@pytest.mark.parametrize(("build", "setting", "accepted"), BAD_SETTINGS.values(), ids=BAD_SETTINGS)
def test_a_bad_setting_raises_config_error_naming_it_and_what_it_accepts(
    build: Callable[[], object], setting: str, accepted: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        build()
    assert caught.value.setting == setting
    assert accepted in caught.value.accepted
    assert str(caught.value).startswith(f"{setting} must be ")


def test_config_error_is_a_vouched_error_and_a_value_error() -> None:
    with pytest.raises(ConfigError) as caught:
        Policy(cardinal_confidence=2)
    assert isinstance(caught.value, VouchedError)
    assert isinstance(caught.value, ValueError)


def test_config_error_echoes_a_long_wrong_value_cut_short_on_one_line() -> None:
    with pytest.raises(ConfigError) as caught:
        Policy(default_ttl="x" * 500 + "\nmore")  # type: ignore[arg-type]  # wrong on purpose
    message = str(caught.value)
    assert "\n" not in message
    assert len(message) < 200
    assert message.endswith("(505 characters)")  # cut short, its full length named
