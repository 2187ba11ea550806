"""Speech and texting noise is mended before a request is read
(agent/calling/grammar/spoken.py), and nothing else is touched."""

from __future__ import annotations

import pytest

from agent.calling.grammar.spoken import as_written

NAMES = ["Priya's room", "Grandad's room", "ok lamp", "bunk 2", "open plan kitchen"]


@pytest.mark.parametrize(
    ("said", "written"),
    [
        ("fan to high lol \U0001f32a\ufe0f", "fan to high lol"),
        ("um turn on the uh the porch light", "turn on the porch light"),
        ("okay so switch off the lights in priyas room", "switch off the lights in Priya's room"),
        ("open grandads blinds", "open Grandad's blinds"),
        ("kill the lights n turn on the fan", "kill the lights and turn on the fan"),
        ("hall lights on plus the den to warm white", "hall lights on and the den to warm white"),
        ("bunk 2 lights on + fan off", "bunk 2 lights on and fan off"),
        ("bunk 2 light -> 40%", "bunk 2 light to 40%"),
        ("bunk 2 light\u2192warm white", "bunk 2 light to warm white"),
        ("bunk 2 light to 60% + fan on", "bunk 2 light to 60% and fan on"),
        ("set the heating to twenty no twenty two", "set the heating to twenty two"),
        ("set it to 23 no 21.5", "set it to 21.5"),
        (
            "the bay light a bit dimmer, say thirty percent, oh, let's make it forty actually",
            "the bay light a bit dimmer, say forty percent",
        ),
        ("heating to 20, no, make it 21", "heating to 21"),
        ("lights to 50 and make it warm white", "lights to 50 and make it warm white"),
        (
            "set the heating to fifteen actually sixteen degrees",
            "set the heating to sixteen degrees",
        ),
        ("heater on no sorry off", "heater off"),
        ("bunk 2 light to, hmm, forty, no, thirty percent", "bunk 2 light to thirty percent"),
        ("fan up to medium, no, sorry, to high", "fan up to high"),
        (
            "lights off in Priya's room, actually no, the bunk 2, bunk 2 off",
            "lights off in the bunk 2, bunk 2 off",
        ),
        ("turn on bunk 2, no wait, Grandad's room", "turn on Grandad's room"),
        ("switch the heater off no wait on switch it on", "switch the heater on"),
        ("heater on no sorry off turn it off please", "heater off please"),
        ("please to open the light in Priya room", "please to turn on the light in Priya's room"),
        ("barn light close, the cows sleep", "barn light off, the cows sleep"),
        ("close the fan and after open light", "turn off the fan and after turn on light"),
        ("stick the immersion on", "turn the immersion on"),
        ("flip the label printer off", "turn the label printer off"),
        ("trun off the lihgts", "turn off the lights"),
        ("toggel the fna", "toggle the fan"),
        ("make the led blnik, fade over 10 secnds", "make the led blink, fade over 10 seconds"),
        ("priyasroom light on", "Priya's room light on"),
        ("stop the pump and light the gate LED", "stop the pump and turn on the gate LED"),
        ("could you light the summit beacon", "could you turn on the summit beacon"),
        ("the light the kids left on", "the light the kids left on"),
        ("Whack the heating up to 22", "Turn the heating up to 22"),
    ],
)
def test_noise_of_speech_and_texting_is_mended(said: str, written: str) -> None:
    assert as_written(said, NAMES) == written


@pytest.mark.parametrize(
    "said",
    [
        "set heating to 20\u00b0C",  # a degree sign is a unit, not a pictograph
        "ok lamp on",  # an opener that starts a name stays
        "hey needle, fan off",  # a wake word is read elsewhere
        "turn the fan on, no wait",  # nothing comes after the taking back
        "lights on no fan",  # "no" between unlike things takes nothing back
        "bunk 2 off, no need for the fan",  # a name, then no name: nothing taken back
        "twenty one and a half degrees",
        "priyanka's lamp",
        "open the blinds and the light",  # a cover opens
        "open plan kitchen lights off",  # "open" inside a name
        "knock knock",  # no switching word follows
        "flip the label printer",  # a toggle
        "put the oven on",  # a letter changed is another word, not a typo
        "the form",
        "the light in the hall",  # "light" a noun
    ],
)
def test_what_is_no_noise_is_left_as_said(said: str) -> None:
    assert as_written(said, NAMES) == said


def test_a_word_of_the_tools_is_never_mended() -> None:
    assert as_written("make it heather purple", keep=["heather purple"]) == "make it heather purple"
    assert as_written("make it heather purple") == "make it heater purple"


def test_a_typo_of_a_name_is_not_made_an_order_word() -> None:
    # "halway" is a letter short of "halfway" and of the name "hallway": the name's mending
    # (the prior's) gets it
    assert as_written("halway light to 20 percent") == "halfway light to 20 percent"
    assert as_written("halway light to 20 percent", ["hallway"]) == "halway light to 20 percent"
    # the order word that is itself a word of a name is still mended to
    assert as_written("put the kettel on", ["tea kettle"]) == "put the kettle on"


def test_a_word_that_begins_a_names_word_is_no_typo_of_an_order() -> None:
    """ "star" is no typo of "start" where a name says "starry"; elsewhere it still is."""
    said = "twins' room lights off, star night-light on"
    assert as_written(said, ["twins' starry night-light", "bunk room"]) == said
    assert as_written("star the fan", ["bunk room"]) == "start the fan"
