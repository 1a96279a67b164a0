"""engine/house_rules.py: the options as data, profiles and their precedence."""

from pathlib import Path

import pytest

from mahjong_audit.engine import house_rules as H
from mahjong_audit.engine.rulesets import RULESETS


def test_every_option_of_every_ruleset_is_listed_with_its_help():
    specs = H.option_specs()
    assert {s.ruleset for s in specs} == set(RULESETS)
    assert all(s.help for s in specs)
    assert len(specs) == sum(len(RULESETS[r].option_docs()) for r in RULESETS)


def test_enumerable_options_list_their_choices_and_alternatives():
    spec = H.option_spec("longgang", "wild_beyond_fourth_copy")
    assert set(spec.choices) == {"value_honours", "any"}
    assert spec.alternatives() == tuple(c for c in spec.choices if c != spec.default)
    sets = H.option_spec("longgang", "abortive_draws")
    assert sets.set_valued and "four_winds" in sets.choices
    assert frozenset({"four_winds"}) in sets.alternatives()
    assert H.option_spec("mcr", "min_fan").choices is None


@pytest.mark.parametrize("tables, message", [
    ({"mcrr": {}}, "[mcrr]: unknown ruleset (known: mcr, longgang, guangdong)"),
    ({"longgang": {"nope": 1}}, "[longgang] nope: unknown option (known: dead_wall,"),
    ({"longgang": {"dead_wall": 22}}, "[longgang] dead_wall = 22: 22 is not one of [20, 21] (allowed: 20, 21)"),
    ({"longgang": {"eight_pairs": "yes"}}, '[longgang] eight_pairs = "yes": expected true/false, got \'yes\' (allowed: false, true)'),
    ({"mcr": {"min_fan": "8"}}, '[mcr] min_fan = "8": expected an integer, got \'8\' (expected int)'),
    ({"longgang": {"abortive_draws": ["x"]}}, '[longgang] abortive_draws = ["x"]: unknown x'),
    ({"longgang": {"eight_pairs_limit": True, "eight_pairs": False}}, "[longgang]: eight_pairs_limit needs eight_pairs"),
    ({"mcr": 3}, "mcr: expected a table [mcr] of options"),
])
def test_a_bad_profile_is_one_line_naming_the_option_and_what_it_allows(tables, message):
    with pytest.raises(H.ProfileError) as e:
        H.Profile.from_tables(tables)
    assert str(e.value).startswith(message)
    assert "\n" not in str(e.value)


def test_the_log_wins_over_the_profile_and_the_profile_over_the_defaults():
    profile = H.Profile.from_tables({"longgang": {"eight_pairs": False, "dead_wall": 21}})
    merged = H.effective_options("longgang", {"eight_pairs": True}, profile)
    parsed = RULESETS["longgang"].parse_options(merged)
    assert parsed.eight_pairs is True  # the log's own word
    assert parsed.dead_wall == 21  # the profile's
    assert parsed.liability_window == 4  # the default
    assert H.differing_from_defaults("longgang", parsed) == {"dead_wall": 21}
    assert H.effective_options("mcr", {"min_fan": 6}, profile) == {"min_fan": 6}


def test_a_profile_round_trips_through_its_toml(tmp_path):
    profile = H.Profile.from_tables({
        "mcr": {"knitted_waits": "botzone", "fan_values": {"箭刻": 4}},
        "longgang": {"appendix_hands": ["门清"], "zuo_is_second_caishen": False},
    })
    path = tmp_path / "house.toml"
    path.write_text(profile.to_toml(), encoding="utf-8")
    loaded = H.Profile.load(path)
    assert {r: dict(t) for r, t in loaded.tables.items()} == {
        "mcr": {"knitted_waits": "botzone", "fan_values": {"箭刻": 4}},
        "longgang": {"appendix_hands": ["门清"], "zuo_is_second_caishen": False},
    }
    assert loaded.name == "house.toml" and len(loaded.sha256) == 64


def test_an_unreadable_or_non_toml_profile_is_refused(tmp_path):
    with pytest.raises(H.ProfileError, match="cannot read"):
        H.Profile.load(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[longgang\n", encoding="utf-8")
    with pytest.raises(H.ProfileError, match="not a TOML file"):
        H.Profile.load(bad)


DOCS = Path(__file__).resolve().parent.parent / "docs" / "rules"


def test_every_option_names_its_seed_passage():
    missing = [(s.ruleset, s.name) for s in H.option_specs() if not s.seed]
    assert missing == []


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_the_rules_pages_option_tables_are_generated_from_the_options(ruleset):
    # as docs/findings.md is from the finding catalogue: `python -m mahjong_audit.engine.house_rules
    # --write-docs` regenerates the block between the marker comments
    page = (DOCS / f"{ruleset}.md").read_text(encoding="utf-8")
    assert H.markdown_table(ruleset) in page
    assert H.with_table(page, ruleset) == page
    for spec in H.option_specs(ruleset):
        assert f"| `{spec.name}` |" in page


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_the_rules_pages_review_the_defaults_of_their_legality_options(ruleset):
    page = (DOCS / f"{ruleset}.md").read_text(encoding="utf-8")
    review = page.split("\n## Defaults review\n")[1].split("\n## ")[0]
    named = {spec.name for spec in H.option_specs(ruleset) if f"`{spec.name}`" in review}
    assert named == {spec.name for spec in H.option_specs(ruleset)}  # each: reviewed or listed as scoring only


def test_a_page_without_the_markers_is_refused():
    with pytest.raises(ValueError, match="no "):
        H.with_table("# a page\n", "mcr")
