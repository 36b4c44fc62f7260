"""A football (soccer) match as facts: API-Football's fixture body with its events.

:func:`match_facts` reads one fixture body (``fixture``, ``league``, ``teams``,
``goals``, ``score``, ``events`` and, when the body has it, ``statistics``) into
facts a match report can be checked against; :func:`match_subjects` gives the
aliases a reader uses for its teams and players ("J. Arteaga" is also "Arteaga").
The attribute names are those the shipped ``football`` lexicon names.

Each team (subject: its name):

- the score: ``goals`` (at full time, extra time included), ``goals_conceded``,
  per half ``goals_1h`` / ``goals_2h`` (the half-time score and the rest), and,
  when played, ``goals_et`` and ``shootout_goals``; ``result`` ("win", "draw",
  "loss"), ``home`` (true / false), ``opponent``;
- counts of the events: ``yellow_cards``, ``red_cards``, ``substitutions``,
  ``penalty_goals``, ``own_goals`` (scored by its players into their own net);
- how the match went, from the running score: ``led`` (it was ahead at some point:
  "took the lead", "extended their lead"), ``equalized`` (a goal of its brought the
  score level: "equalized", "drew level");
- the statistics block: ``shots``, ``shots_on_target``, ``possession`` (%),
  ``corners``, ``fouls``, ``offsides``, ``saves``;
- ``goal_minute`` (unit ``min``): each goal it scored, own goals it was given included
  (its cards keep their minutes on the players: "the 65th minute" stated for a team is
  its goal's); ``substitution_minute``: each of its changes, which the lexicon names
  only by words of a change ("Rovers made changes at 61' and 65'"), so a change's
  minute said to be a goal's is still wrong;
- the occasion: ``date`` (ISO, UTC), ``venue``, ``referee``, ``league``.

Each player named in an event (subject: the name as the body gives it): ``team``;
``goals``, ``assists``, ``yellow_cards``, ``red_cards`` (0 included), and where not
0 ``penalty_goals``, ``own_goals``, ``missed_penalties``; per event a minute,
unit ``min``: ``goal_minute``, ``own_goal_minute``, ``assist_minute``,
``yellow_card_minute``, ``red_card_minute``, ``subbed_off_minute``,
``subbed_on_minute`` (one fact per event; one (subject, attribute) may hold several);
who came on and who went off, each a fact of its own (``came_on``, ``went_off``: true
or false, so "X came on" is checked for a player who only left); ``equalized`` (a goal
of his levelled the score) and ``scored_winner`` (his goal put the winners ahead for
good: "scored the winner"; false for all in a draw; an own goal is nobody's winner).
A minute in added time ("90+2") is both 90 and the 92nd minute a reader may count,
with ``<event>_added_minutes`` (2).

The match itself (subject ``"<home> v <away>"``, :func:`match_name`; a reader's "the
match"): ``final_score`` and ``halftime_score`` ("3-1", and "1-3": either way round; each
team has them too),
``regulation_minutes`` (``status.elapsed``, 90), ``added_time`` (the minutes added,
``status.extra``), ``match_minutes`` (how long it lasted: the two together),
``date``, ``venue``, ``referee``, ``round``; and both teams' counts together,
``match_yellow_cards``, ``match_red_cards``, ``match_substitutions`` ("the game saw
eight cautions", "nine changes between them").

How API-Football writes events:

- in a substitution ``player`` is the one LEAVING and ``assist`` the one coming on;
- an own goal is listed under the team it counted for, so its scorer plays for the
  other team;
- a penalty shoot-out kick (``comments`` "Penalty Shootout") is no goal of the match;
- VAR events change nothing here.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

from vouched import Fact, MalformedPayloadError

__all__ = ["MATCH_STATISTICS", "match_facts", "match_name", "match_subjects"]

MATCH_STATISTICS: Mapping[str, tuple[str, str | None]] = {
    "Total Shots": ("shots", None),
    "Shots on Goal": ("shots_on_target", None),
    "Ball Possession": ("possession", "%"),
    "Corner Kicks": ("corners", None),
    "Fouls": ("fouls", None),
    "Offsides": ("offsides", None),
    "Goalkeeper Saves": ("saves", None),
}
"""API-Football statistic type -> (the team's attribute, its unit)."""

_SIDES = ("home", "away")
_TEN_YEARS = timedelta(days=3650)
_MINUTE_OF = {
    ("Goal", "Normal Goal"): "goal_minute",
    ("Goal", "Penalty"): "goal_minute",
    ("Goal", "Own Goal"): "own_goal_minute",
    ("Goal", "Missed Penalty"): "missed_penalty_minute",
    ("Card", "Yellow Card"): "yellow_card_minute",
    ("Card", "Red Card"): "red_card_minute",
}
_SCORED = {("Goal", "Normal Goal"), ("Goal", "Penalty"), ("Goal", "Own Goal")}
_PLAYER_COUNTS = ("goals", "assists", "yellow_cards", "red_cards")
_PLAYER_COUNTS_IF_ANY = ("penalty_goals", "own_goals", "missed_penalties")
_MATCH_WORDS = (
    "the match",
    "the game",
    "the fixture",
    "the contest",
    "the encounter",
)
_MATCH_TOTALS = ("yellow_cards", "red_cards", "substitutions")
_CHANGES = ("came_on", "went_off")
_COURSE_PLAYER = (*_CHANGES, "equalized", "scored_winner")
_INITIAL = re.compile(r"^(?:\w\.\s*)+", re.UNICODE)


def match_facts(
    body: Any,
    *,
    source: str = "api-football",
    observed_at: datetime | None = None,
    ttl: timedelta = _TEN_YEARS,
) -> list[Fact]:
    """Facts of one finished fixture. ``observed_at`` defaults to kick-off (the
    ``fixture.timestamp``): a match's facts do not change after it ends."""
    game = _mapping(body, "body")
    fixture, teams = _mapping(game.get("fixture"), "fixture"), _mapping(game.get("teams"), "teams")
    names = {
        side: _name(_mapping(teams.get(side), f"teams.{side}"), f"teams.{side}") for side in _SIDES
    }
    kickoff = _kickoff(fixture)
    out = _Facts(source, observed_at or kickoff, ttl, f"{source}/{fixture.get('id', '')}")
    events = [e for e in game.get("events") or () if isinstance(e, Mapping)]
    for side in _SIDES:
        _team_facts(out, game, names, side, kickoff)
    _match_facts(out, game, match_name(game), kickoff)
    _match_totals(out, match_name(game), names.values())
    _statistics(out, game.get("statistics"), names)
    _player_facts(out, events, names)
    final = _mapping(game.get("goals"), "goals")
    _course_facts(out, events, names, (final.get("home"), final.get("away")))
    return out.facts


def match_name(body: Any) -> str:
    """The match as a subject: "<home> v <away>" (a reader's "the match", "the game")."""
    teams = _mapping(_mapping(body, "body").get("teams"), "teams")
    home, away = (_name(_mapping(teams.get(s), f"teams.{s}"), f"teams.{s}") for s in _SIDES)
    return f"{home} v {away}"


def match_subjects(body: Any) -> dict[str, list[str]]:
    """Aliases a reader uses: a team by its name; a player by the name as given and,
    when it is an initial and a surname ("J. Arteaga") or a full name, the surname
    alone, unless two players of the match share it."""
    game = _mapping(body, "body")
    players: list[str] = []
    for event in game.get("events") or ():
        if isinstance(event, Mapping):
            for key in ("player", "assist"):
                who = event.get(key)
                name = who.get("name") if isinstance(who, Mapping) else None
                if isinstance(name, str) and name.strip() and name not in players:
                    players.append(name)
    surnames = Counter(_surname(p) for p in players)
    subjects: dict[str, list[str]] = {match_name(game): list(_MATCH_WORDS)}
    for player in players:
        surname = _surname(player)
        subjects[player] = [surname] if surname != player and surnames[surname] == 1 else []
    return subjects


class _Facts:
    def __init__(self, source: str, observed_at: datetime, ttl: timedelta, citation: str) -> None:
        self.facts: list[Fact] = []
        self._source, self._observed_at, self._ttl = source, observed_at, ttl
        self._citation = citation

    def add(
        self,
        subject: str,
        attribute: str,
        value: str | bool | int | Decimal | None,
        unit: str | None = None,
    ) -> None:
        if value is None:
            return
        self.facts.append(
            Fact(
                subject=subject,
                attribute=attribute,
                value=value,
                unit=unit,
                confidence=1.0,
                citation=self._citation,
                source=self._source,
                observed_at=self._observed_at,
                ttl=self._ttl,
            )
        )


def _team_facts(
    out: _Facts, game: Mapping[str, Any], names: Mapping[str, str], side: str, kickoff: datetime
) -> None:
    other = "away" if side == "home" else "home"
    team = names[side]
    score = _sub(game, "score")
    goals = _count(_mapping(game.get("goals"), "goals").get(side), f"goals.{side}")
    against = _count(_mapping(game.get("goals"), "goals").get(other), f"goals.{other}")
    half = _score_part(score, "halftime", side)
    extra = _score_part(score, "extratime", side)
    out.add(team, "goals", goals)
    out.add(team, "goals_conceded", against)
    out.add(team, "goals_1h", half)
    if half is not None and goals is not None:
        out.add(team, "goals_2h", goals - half - (extra or 0))
    out.add(team, "goals_et", extra)
    out.add(team, "shootout_goals", _score_part(score, "penalty", side))
    if goals is not None and against is not None:
        out.add(team, "result", "win" if goals > against else "loss" if goals < against else "draw")
    out.add(team, "home", side == "home")
    out.add(team, "opponent", names[other])
    mine = [
        e
        for e in game.get("events") or ()
        if isinstance(e, Mapping) and _team_of(e) == team and not _is_shootout(e)
    ]
    kinds = Counter((e.get("type"), e.get("detail")) for e in mine)
    out.add(team, "yellow_cards", kinds[("Card", "Yellow Card")])
    out.add(team, "red_cards", kinds[("Card", "Red Card")])
    out.add(team, "substitutions", sum(1 for e in mine if e.get("type") == "subst"))
    out.add(team, "penalty_goals", kinds[("Goal", "Penalty")])
    theirs = [
        e
        for e in game.get("events") or ()
        if isinstance(e, Mapping) and _team_of(e) == names[other]
    ]
    out.add(
        team,
        "own_goals",
        sum(1 for e in theirs if (e.get("type"), e.get("detail")) == ("Goal", "Own Goal")),
    )
    out.add(team, "date", kickoff.date().isoformat())
    fixture = _mapping(game.get("fixture"), "fixture")
    venue = _sub(fixture, "venue")
    out.add(team, "venue", _text(venue.get("name")))
    out.add(team, "referee", _text(fixture.get("referee")))
    league = _sub(game, "league")
    out.add(team, "league", _text(league.get("name")))
    out.add(team, "round", _text(league.get("round")))


def _match_facts(out: _Facts, game: Mapping[str, Any], match: str, kickoff: datetime) -> None:
    fixture = _mapping(game.get("fixture"), "fixture")
    status, venue = _sub(fixture, "status"), _sub(fixture, "venue")
    goals = _mapping(game.get("goals"), "goals")
    half = _sub(_sub(game, "score"), "halftime")
    teams = _mapping(game.get("teams"), "teams")
    sides = [_name(_mapping(teams.get(s), f"teams.{s}"), f"teams.{s}") for s in _SIDES]
    for attribute, block in (("final_score", goals), ("halftime_score", half)):
        home, away = _whole(block.get("home")), _whole(block.get("away"))
        if home is None or away is None:
            continue
        for subject in (match, *sides):  # the match's and each team's ("won 2-1")
            out.add(subject, attribute, f"{home}-{away}")  # as a reader writes it,
            if home != away:
                out.add(subject, attribute, f"{away}-{home}")  # either way round
    elapsed, extra = _whole(status.get("elapsed")), _whole(status.get("extra"))
    out.add(match, "regulation_minutes", elapsed, "min")
    out.add(match, "added_time", extra, "min")
    if elapsed is not None:  # how long it lasted: the minutes added are played too
        out.add(match, "match_minutes", elapsed + (extra or 0), "min")
    out.add(match, "date", kickoff.date().isoformat())
    out.add(match, "venue", _text(venue.get("name")))
    out.add(match, "referee", _text(fixture.get("referee")))
    out.add(match, "round", _text(_sub(game, "league").get("round")))


def _match_totals(out: _Facts, match: str, teams: Iterable[str]) -> None:
    """Counts of the match as a whole ("the game saw eight cautions", "nine changes
    between them"): both teams' together."""
    sides = set(teams)
    for attribute in _MATCH_TOTALS:
        values = [
            f.value
            for f in out.facts
            if f.subject in sides and f.attribute == attribute and type(f.value) is int
        ]
        if len(values) == len(sides):  # a name of its own: the match is no team or player
            out.add(match, f"match_{attribute}", sum(v for v in values if type(v) is int))


def _statistics(out: _Facts, block: object, names: Mapping[str, str]) -> None:
    if not isinstance(block, Sequence) or isinstance(block, str):
        return
    known = set(names.values())
    for entry in block:
        if not isinstance(entry, Mapping) or not isinstance(entry.get("team"), Mapping):
            continue
        team = entry["team"].get("name")
        if team not in known:
            continue
        for stat in entry.get("statistics") or ():
            if not isinstance(stat, Mapping) or stat.get("type") not in MATCH_STATISTICS:
                continue
            attribute, unit = MATCH_STATISTICS[stat["type"]]
            out.add(team, attribute, _statistic(stat.get("value")), unit)


def _player_facts(out: _Facts, events: list[Mapping[str, Any]], names: Mapping[str, str]) -> None:
    other = {names["home"]: names["away"], names["away"]: names["home"]}
    counts: dict[str, Counter[str]] = {}
    team_of: dict[str, str] = {}
    minutes: list[tuple[str, str, int]] = []
    for event in events:
        team, player, helper = _team_of(event), _person(event, "player"), _person(event, "assist")
        if team not in other or player is None:
            continue
        kind = (event.get("type"), event.get("detail"))
        minute = _minutes(event)
        counts.setdefault(player, Counter())
        if kind == ("Goal", "Own Goal"):
            team_of.setdefault(player, other[team])
            counts[player]["own_goals"] += 1
        else:
            team_of.setdefault(player, team)
        if event.get("type") == "subst":
            _minute_fact(minutes, player, "subbed_off_minute", minute)
            _minute_fact(minutes, team, "substitution_minute", minute)  # "changes at 61', 65'"
            if helper is not None:
                counts.setdefault(helper, Counter())
                team_of.setdefault(helper, team)
                _minute_fact(minutes, helper, "subbed_on_minute", minute)
            continue
        if _is_shootout(event) or event.get("type") == "Var":
            continue
        if kind in (("Goal", "Normal Goal"), ("Goal", "Penalty")):
            counts[player]["goals"] += 1
            if event.get("detail") == "Penalty":
                counts[player]["penalty_goals"] += 1
            if helper is not None:
                counts.setdefault(helper, Counter())["assists"] += 1
                team_of.setdefault(helper, team)
                _minute_fact(minutes, helper, "assist_minute", minute)
        elif kind == ("Goal", "Missed Penalty"):
            counts[player]["missed_penalties"] += 1
        if kind in _MINUTE_OF:
            _minute_fact(minutes, player, _MINUTE_OF[kind], minute)
        if kind in _SCORED:  # the team it counted for scored then ("took the lead in the 40th")
            _minute_fact(minutes, team, "goal_minute", minute)
        if kind == ("Card", "Yellow Card"):
            counts[player]["yellow_cards"] += 1
        elif kind == ("Card", "Red Card"):
            counts[player]["red_cards"] += 1
    for player, tally in counts.items():
        out.add(player, "team", team_of.get(player))
        for attribute in _PLAYER_COUNTS:
            out.add(player, attribute, tally[attribute])
        for attribute in _PLAYER_COUNTS_IF_ANY:
            if tally[attribute]:
                out.add(player, attribute, tally[attribute])
    for who, attribute, value in minutes:
        out.add(who, attribute, value, "min")


def _course_facts(
    out: _Facts,
    events: list[Mapping[str, Any]],
    names: Mapping[str, str],
    final: tuple[object, object],
) -> None:
    """How the match went, read from its goals in order: who led, who equalized, whose
    goal won it (only when the goals add up to the final score: events left out would
    tell another story); and who came on and who went off."""
    if names["home"] == names["away"]:
        return
    course = _Course(names["home"], names["away"])
    for _, event in sorted(enumerate(events), key=lambda ie: (*_order(ie[1]), ie[0])):
        course.read(event)
    complete = final == (course.goals[names["home"]], course.goals[names["away"]])
    if complete:
        course.credit_winner()
        for team in course.goals:
            out.add(team, "led", course.led[team])
            out.add(team, "equalized", course.levelled[team])
    for player, said in course.players.items():
        for attribute in _COURSE_PLAYER if complete else _CHANGES:
            out.add(player, attribute, said[attribute])


class _Course:
    """The running score of a match and what each player did in it, event by event."""

    def __init__(self, home: str, away: str) -> None:
        self.goals = {home: 0, away: 0}
        self.other = {home: away, away: home}
        self.led = {home: False, away: False}
        self.levelled = {home: False, away: False}
        self.players: dict[str, dict[str, bool]] = {}
        self._scored: list[tuple[str, str | None, int]] = []  # (team, scorer, its tally)

    def _player(self, name: str) -> dict[str, bool]:
        return self.players.setdefault(name, dict.fromkeys(_COURSE_PLAYER, False))

    def read(self, event: Mapping[str, Any]) -> None:
        team, player = _team_of(event), _person(event, "player")
        if team not in self.goals or player is None:
            return
        mine = self._player(player)
        helper = _person(event, "assist")
        theirs = self._player(helper) if helper is not None else None
        if event.get("type") == "subst":
            mine["went_off"] = True
            if theirs is not None:
                theirs["came_on"] = True
        elif (event.get("type"), event.get("detail")) in _SCORED and not _is_shootout(event):
            self._goal(team, player, mine, own=event.get("detail") == "Own Goal")

    def _goal(self, team: str, player: str, mine: dict[str, bool], *, own: bool) -> None:
        self.goals[team] += 1
        tally, against = self.goals[team], self.goals[self.other[team]]
        if tally == against:
            self.levelled[team] = True
            mine["equalized"] = mine["equalized"] or not own  # an own goal is nobody's
        self.led[team] = self.led[team] or tally > against
        self._scored.append((team, None if own else player, tally))

    def credit_winner(self) -> None:
        """The winners' goal that put them ahead for good (their tally one more than the
        losers' final goals) is its scorer's winner; a draw has none."""
        winner = max(self.goals, key=self.goals.__getitem__)
        decisive = self.goals[self.other[winner]] + 1
        if self.goals[winner] < decisive:
            return
        for team, scorer, tally in self._scored:
            if team == winner and tally == decisive and scorer is not None:
                self.players[scorer]["scored_winner"] = True


def _order(event: Mapping[str, Any]) -> tuple[int, int]:
    """Where an event falls in the match: its minute, then its added minutes."""
    elapsed, extra = _minutes(event)
    return (elapsed if elapsed is not None else 10**6, extra or 0)


def _minute_fact(
    minutes: list[tuple[str, str, int]],
    who: str,
    attribute: str,
    minute: tuple[int | None, int | None],
) -> None:
    """The event's minute as written ("90+2": 90, and the 92nd minute a reader may count),
    and its added minutes (``goal_added_minutes``: 2)."""
    elapsed, extra = minute
    if elapsed is None:
        return
    minutes.append((who, attribute, elapsed))
    if extra:
        minutes.append((who, attribute, elapsed + extra))
        minutes.append((who, attribute.removesuffix("_minute") + "_added_minutes", extra))


def _minutes(event: Mapping[str, Any]) -> tuple[int | None, int | None]:
    """(``elapsed``, added minutes) of an event: "90+2" is (90, 2)."""
    time = event.get("time")
    if not isinstance(time, Mapping):
        return None, None
    elapsed, extra = _whole(time.get("elapsed")), _whole(time.get("extra"))
    return elapsed, extra if elapsed is not None else None


def _whole(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _is_shootout(event: Mapping[str, Any]) -> bool:
    return event.get("comments") == "Penalty Shootout"


def _team_of(event: Mapping[str, Any]) -> str | None:
    team = event.get("team")
    name = team.get("name") if isinstance(team, Mapping) else None
    return name if isinstance(name, str) else None


def _person(event: Mapping[str, Any], key: str) -> str | None:
    who = event.get(key)
    name = who.get("name") if isinstance(who, Mapping) else None
    return name.strip() if isinstance(name, str) and name.strip() else None


def _surname(name: str) -> str:
    """ "J. Arteaga" -> "Arteaga"; "Luciano Naninho" -> "Naninho"; "Alesson" stays."""
    bare = _INITIAL.sub("", name).strip()
    return bare.split()[-1] if bare.split() else name


def _score_part(score: Mapping[str, Any], part: str, side: str) -> int | None:
    block = score.get(part)
    if not isinstance(block, Mapping):
        return None
    return _count(block.get(side), f"score.{part}.{side}")


def _statistic(value: object) -> int | Decimal | None:
    """A statistic as stated: 12, "55%" (possession) or null."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and re.fullmatch(r"\d+(?:\.\d+)?%?", value.strip()):
        number = value.strip().rstrip("%")
        return int(number) if number.isdigit() else Decimal(number)
    return None


def _count(value: object, field: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    raise MalformedPayloadError(f"{field} is not a count of goals: {value!r}")


def _kickoff(fixture: Mapping[str, Any]) -> datetime:
    stamp = fixture.get("timestamp")
    if isinstance(stamp, int) and not isinstance(stamp, bool):
        return datetime.fromtimestamp(stamp, UTC)
    date = fixture.get("date")
    if isinstance(date, str):
        try:
            parsed = datetime.fromisoformat(date)
        except ValueError:
            parsed = None
        if parsed is not None and parsed.tzinfo is not None:
            return parsed.astimezone(UTC)
    raise MalformedPayloadError(
        "fixture has neither a timestamp nor a dated kick-off with its offset"
    )


def _sub(parent: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    """An optional object of the body; absent or not an object reads as empty."""
    value = parent.get(key)
    return value if isinstance(value, Mapping) else {}


def _mapping(value: object, field: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise MalformedPayloadError(f"{field} is not an object")
    return value


def _name(team: Mapping[str, Any], field: str) -> str:
    name = team.get("name")
    if not isinstance(name, str) or not name.strip():
        raise MalformedPayloadError(f"{field}.name is missing")
    return name.strip()


def _text(value: object) -> str | None:
    return value.strip() if isinstance(value, str) and value.strip() else None
