"""The serve config: read once at start; every mistake named by file and key."""

from __future__ import annotations

from pathlib import Path

import pytest

from vouched import (
    GuardedSource,
    InputError,
    OpenAIChatPhraser,
    OpenTelemetryTracing,
    RedisLastGood,
    SqliteSnapshotStore,
    TemplatePhraser,
)
from vouched._server._config import FileSource, load_config

from ._serving import EXAMPLES


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "serve.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _error(tmp_path: Path, text: str, **kw: object) -> str:
    with pytest.raises(InputError) as caught:
        load_config(_write(tmp_path, text), **kw)  # type: ignore[arg-type]
    return str(caught.value)


def test_the_example_config_loads_its_files_once() -> None:
    config = load_config(EXAMPLES / "serve.toml")
    assert sorted(config.catalogs) == ["workshops"]
    assert config.answer_lexicon is config.lexicons["weather"]
    (guarded,) = config.sources
    assert isinstance(guarded, GuardedSource)
    source = guarded.source
    assert isinstance(source, FileSource)
    assert len(source.facts) == 8
    assert isinstance(config.phraser, TemplatePhraser)


def test_an_empty_config_binds_to_127_0_0_1() -> None:
    config = load_config(EXAMPLES / "serve.toml")
    assert config.host == "127.0.0.1"


def test_an_unknown_section_is_named(tmp_path: Path) -> None:
    expected = (
        "sever: unknown key (expected server, policy, lexicons, catalogs, fleet, answer, "
        "upstream, tracing)"
    )
    assert _error(tmp_path, "[sever]\n").endswith(f"serve.toml: {expected}")


def test_a_wrongly_typed_setting_is_named(tmp_path: Path) -> None:
    assert "server.max_body_bytes: must be an integer" in _error(
        tmp_path, '[server]\nmax_body_bytes = "1MB"\n'
    )


def test_a_negative_deadline_is_refused(tmp_path: Path) -> None:
    assert "server.request_timeout: must be positive" in _error(
        tmp_path, "[server]\nrequest_timeout = -1\n"
    )


def test_a_missing_lexicon_file_names_the_file(tmp_path: Path) -> None:
    assert "nope.json" in _error(tmp_path, '[lexicons]\nweather = "nope.json"\n')


def test_an_answer_lexicon_must_be_one_of_the_lexicons(tmp_path: Path) -> None:
    assert "answer.lexicon: names no lexicon" in _error(tmp_path, '[answer]\nlexicon = "x"\n')


def test_a_source_needs_a_facts_file_or_an_adapter(tmp_path: Path) -> None:
    assert "answer.sources.0: needs exactly one of" in _error(
        tmp_path, '[[answer.sources]]\nname = "x"\n'
    )


def test_an_adapter_that_is_not_installed_is_named(tmp_path: Path) -> None:
    message = _error(tmp_path, '[[answer.sources]]\nadapter = "no-such"\n')
    assert "answer.sources.0.adapter: no installed adapter 'no-such'" in message


def test_an_installed_adapter_is_made_with_its_options(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        '[[answer.sources]]\nadapter = "open-meteo"\n'
        'options = { base_url = "http://127.0.0.1:9", name = "weather-local" }\n',
    )
    (source,) = load_config(path).sources
    assert source.name == "weather-local"


def test_an_openai_phraser_reads_its_key_from_the_named_variable(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        '[answer.phraser]\nkind = "openai"\nbase_url = "http://127.0.0.1:11434/v1"\n'
        'model = "m"\napi_key_env = "MODEL_KEY"\nstall_timeout = 3\n',
    )
    phraser = load_config(path, environ={"MODEL_KEY": "sk-local"}).phraser
    assert isinstance(phraser, OpenAIChatPhraser)
    assert phraser.stall_timeout == 3
    assert phraser._request_headers()["authorization"] == "Bearer sk-local"


def test_a_key_variable_that_is_not_set_stops_the_start(tmp_path: Path) -> None:
    text = (
        '[answer.phraser]\nkind = "openai"\nbase_url = "http://127.0.0.1:1/v1"\n'
        'model = "m"\napi_key_env = "UNSET_KEY"\n'
    )
    assert "answer.phraser.api_key_env: names no set environment variable" in _error(
        tmp_path, text, environ={}
    )


def test_invalid_toml_is_one_line(tmp_path: Path) -> None:
    message = _error(tmp_path, "[server\n")
    assert "invalid TOML" in message
    assert "\n" not in message


def test_the_serve_guides_config_loads_beside_the_example_files(tmp_path: Path) -> None:
    section = (EXAMPLES.parent / "docs" / "guides" / "serve.md").read_text(encoding="utf-8")
    block = section.split("```toml\n", 1)[1].split("```", 1)[0]
    for name in ("lexicon.json", "catalog.csv", "contract.toml", "facts.json"):
        (tmp_path / name).write_bytes((EXAMPLES / name).read_bytes())
    config = load_config(_write(tmp_path, block))
    assert sorted(config.catalogs) == ["workshops"]
    assert config.max_body_bytes == 1048576


# -- where it listens --------------------------------------------------------------


def test_an_empty_host_is_a_config_error_not_every_interface(tmp_path: Path) -> None:
    assert "server.host: must name an address" in _error(tmp_path, '[server]\nhost = ""\n')


def test_binding_beyond_loopback_needs_a_token(tmp_path: Path) -> None:
    message = _error(tmp_path, '[server]\nhost = "0.0.0.0"\n')
    assert "server.host: binds beyond loopback" in message
    assert "token_env" in message


def test_the_token_is_read_from_the_named_variable(tmp_path: Path) -> None:
    path = _write(tmp_path, '[server]\nhost = "0.0.0.0"\ntoken_env = "SERVE_TOKEN"\n')
    token = "t0k"  # noqa: S105 - a test token
    assert load_config(path, environ={"SERVE_TOKEN": token}).token == token


def test_a_token_variable_that_is_not_set_stops_the_start(tmp_path: Path) -> None:
    text = '[server]\ntoken_env = "NOT_SET"\n'
    assert "server.token_env: names no set environment variable" in _error(
        tmp_path, text, environ={}
    )


# -- sources, store, fleet ---------------------------------------------------------


def test_every_source_is_guarded_with_its_own_breaker_settings(tmp_path: Path) -> None:
    (tmp_path / "facts.json").write_bytes((EXAMPLES / "facts.json").read_bytes())
    path = _write(
        tmp_path,
        '[[answer.sources]]\nfacts = "facts.json"\nfail_max = 2\nreset_timeout = 7\n'
        "timeout = 0.5\nkeep_for = 60\n",
    )
    (source,) = load_config(path).sources
    assert isinstance(source, GuardedSource)
    assert source.deadline == 0.5
    assert source.cache_settings is not None
    assert source.cache_settings.keep_for == 60
    breaker = source.breaker
    assert breaker is not None
    assert breaker.settings.fail_max == 2
    assert breaker.settings.reset_timeout == 7


def test_a_wrong_breaker_setting_names_the_source(tmp_path: Path) -> None:
    (tmp_path / "facts.json").write_bytes((EXAMPLES / "facts.json").read_bytes())
    text = '[[answer.sources]]\nfacts = "facts.json"\nfail_max = "many"\n'
    assert "answer.sources.0.fail_max: must be an integer" in _error(tmp_path, text)


def test_the_store_takes_a_sqlite_url(tmp_path: Path) -> None:
    target = tmp_path / "s.db"
    path = _write(tmp_path, f'[answer]\nstore = "sqlite:///{target}"\n')
    store = load_config(path).store
    assert isinstance(store, SqliteSnapshotStore)
    assert target.exists()


def test_a_store_url_of_an_unknown_kind_is_named(tmp_path: Path) -> None:
    assert "answer.store: unknown store URL scheme 'mongodb'" in _error(
        tmp_path, '[answer]\nstore = "mongodb://127.0.0.1/x"\n'
    )


def test_a_sensitive_policy_with_a_store_needs_the_redaction_key(tmp_path: Path) -> None:
    text = '[policy]\nsensitive_attributes = ["salary"]\n[answer]\nstore = "s.db"\n'
    assert "answer.store: the policy names sensitive values" in _error(tmp_path, text)


def test_the_redaction_key_is_read_from_the_named_variable(tmp_path: Path) -> None:
    text = (
        '[policy]\nsensitive_attributes = ["salary"]\n'
        '[answer]\nstore = "s.db"\nredaction_key_env = "REDACT"\n'
    )
    config = load_config(_write(tmp_path, text), environ={"REDACT": "k" * 32})
    assert config.redaction_key == b"k" * 32


def test_a_redis_url_shares_breakers_and_last_good_facts(tmp_path: Path) -> None:
    (tmp_path / "facts.json").write_bytes((EXAMPLES / "facts.json").read_bytes())
    text = (
        '[fleet]\nredis_url = "redis://127.0.0.1:6379/0"\nprefix = "t-config"\n'
        '[[answer.sources]]\nfacts = "facts.json"\n'
    )
    (source,) = load_config(_write(tmp_path, text)).sources  # no connection is made here
    assert isinstance(source, GuardedSource)
    assert isinstance(source.last_good, RedisLastGood)
    assert type(source.breaker).__name__ == "RedisBreaker"


def test_a_fleet_url_that_is_not_redis_is_named(tmp_path: Path) -> None:
    assert "fleet.redis_url: must be a redis:// URL" in _error(
        tmp_path, '[fleet]\nredis_url = "http://127.0.0.1"\n'
    )


def test_tracing_is_off_unless_the_config_turns_it_on(tmp_path: Path) -> None:
    assert load_config(EXAMPLES / "serve.toml").tracing is None
    config = load_config(_write(tmp_path, "[tracing]\nenabled = true\n"))
    assert isinstance(config.tracing, OpenTelemetryTracing)


def test_a_wrong_tracing_setting_is_named(tmp_path: Path) -> None:
    assert "tracing.enabled: must be true or false" in _error(
        tmp_path, '[tracing]\nenabled = "yes"\n'
    )
    assert "tracing.sample: unknown key (expected enabled)" in _error(
        tmp_path, "[tracing]\nsample = 0.5\n"
    )


def test_server_processes_is_read_and_bounded(tmp_path: Path) -> None:
    assert load_config(EXAMPLES / "serve.toml").processes == 1
    assert load_config(_write(tmp_path, "[server]\nprocesses = 3\n")).processes == 3
    assert _error(tmp_path, "[server]\nprocesses = 65\n").endswith(
        "server.processes: must be between 1 and 64"
    )
