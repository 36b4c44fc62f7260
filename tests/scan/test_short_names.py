"""Short names (``_scan/_facts/_shortnames.py``): which surnames and given names alone
name a subject, stated as a reader would."""

from __future__ import annotations

from vouched._scan._facts._shortnames import short_names


def test_a_persons_surname_and_given_name_name_them() -> None:
    assert dict(short_names({}, ["Nikola Jokic"])) == {
        "nikola": ("Nikola Jokic",),
        "jokic": ("Nikola Jokic",),
    }


def test_a_generational_suffix_is_not_the_surname() -> None:
    assert short_names({}, ["Michael Porter Jr."])["porter"] == ("Michael Porter Jr.",)
    assert "jr." not in short_names({}, ["Michael Porter Jr."])


def test_a_shared_surname_names_both() -> None:
    names = short_names({}, ["Lou Williams", "Marvin Williams"])
    assert names["williams"] == ("Lou Williams", "Marvin Williams")


def test_the_lexicons_own_aliases_decide() -> None:
    names = short_names({"Nick Young": ["Nick Young"]}, ["Nick Young", "Trae Young"])
    assert names["young"] == ("Trae Young",)
    assert "nick" not in names


def test_another_subjects_name_or_alias_is_not_derived() -> None:
    names = short_names({"Jazz": ["Utah"]}, ["Jazz", "Utah Smith"])
    assert "utah" not in names
    assert names["smith"] == ("Utah Smith",)


def test_places_initials_and_common_words_get_no_short_names() -> None:
    names = short_names({}, ["New York", "Mexico City", "C.J. McCollum", "Will Barton", "Berlin"])
    assert set(names) == {"mccollum", "barton"}
