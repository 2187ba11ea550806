"""A thing said by a short form of its name is written as the name, and only then."""

from __future__ import annotations

import pytest

from agent.calling.grammar.shortnames import ShortNames, with_picked_forms
from agent.offline.train.homes import home_tools

HOME = home_tools(
    {
        "lights": {
            "kind": "simulated_lights",
            "rooms": [
                "Tamsin's attic bedroom",
                "Granny Margit's bedroom",
                "sterilisation back room",
                "arch 2",
                "Wilfred's bedroom",
                "annexe waiting area",
                "garden cabin",
                "dormitory B",
                "barn office",
                "Juniper practice room",
                "Hugo's bathroom",
            ],
        },
        "plugs": {
            "kind": "tasmota",
            "switches": {
                "port side bilge pump": "t1",
                "hall grandfather clock chimer": "t2",
                "spiral dough mixer": "t3",
                "yard gate lock": "t4",
                "night bell": "t5",
                "dipping well pump": "t11",
                "shower pump": "t6",
                "shop compressor": "t7",
                "cabin radiator": "t8",
                "Wilfred's electric blanket": "t9",
                "waiting area water cooler": "t10",
            },
        },
        "heating": {"kind": "simulated_thermostat"},
        "fan": {"kind": "simulated_fan", "speeds": ["fume purge", "steady draw", "low"]},
        "tank": {
            "kind": "simulated_lights",
            "rooms": ["quarantine bay three"],
            "colors": ["moonglow indigo", "dawn coral", "white"],
            "tool": "set_tank_light",
        },
        "relays": {
            "kind": "gpio_relays",
            "relays": {
                "greenhouse roof heater": 5,
                "foredeck floodlight": 6,
                "compressor warning": 7,
            },
            "tool": "set_greenhouse_heater",
            "description": "The greenhouse heater and the deck's floodlight.",
        },
    }
)


@pytest.fixture(scope="module")
def short() -> ShortNames:
    return ShortNames(HOME)


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("bilge pump on", "port side bilge pump on"),
        (
            "turn the clock chimer off for tonight",
            "turn the hall grandfather clock chimer off for tonight",
        ),
        ("lights on in Tamsin's room please", "lights on in Tamsin's attic bedroom please"),
        ("dim Granny's bedroom to 15", "dim Granny Margit's bedroom to 15"),
        ("steri room light off", "sterilisation back room light off"),
        ("Juniper lights to 15", "Juniper practice room lights to 15"),
        ("toggle the mixer", "toggle the spiral dough mixer"),
        # a setting of more than one word, said by a part only it has
        ("put the extractor on purge", "put the extractor on fume purge"),
        ("quarantine bay on moonglow", "quarantine bay three on moonglow indigo"),
        # one word that heads one name and only qualifies another is the first's
        ("compressor on", "shop compressor on"),
        # a name's number said in words
        ("lights on in arch two", "lights on in arch 2"),
        # an owner said by a short name, where one owner of the home begins so
        ("Wilf's blanket off", "Wilfred's electric blanket off"),
        ("Wilf's blinds down", "Wilfred's blinds down"),
        # his, her or their after one owner said: that owner's
        (
            "Wilfred's blinds up, his blanket off",
            "Wilfred's blinds up, Wilfred's electric blanket off",
        ),
        ("it's late for Tamsin, dim her room", "it's late for Tamsin, dim Tamsin's attic bedroom"),
        # a word of a setting's name before a word of its kind
        (
            "put the quarantine bay the indigo colour",
            "put the quarantine bay three the moonglow indigo colour",
        ),
        # a name's word said in another clause is no piece of it
        (
            "cabin light off, then the radiator on",
            "garden cabin light off, then the cabin radiator on",
        ),
        # a one-word run that ends its clause
        ("turn off the mixer, would you", "turn off the spiral dough mixer, would you"),
        # said twice the same way: written twice
        ("mixer on, no, mixer off", "spiral dough mixer on, no, spiral dough mixer off"),
    ],
)
def test_a_short_form_of_one_name_is_written_as_the_name(
    short: ShortNames, said: str, meant: str
) -> None:
    assert short.written_in_full(said) == meant


@pytest.mark.parametrize(
    "said",
    [
        "port side bilge pump on",  # said in full
        "barn office light off",  # a name of its own
        "turn on the light in dormitory A",  # one of several, and not this one
        "office heating to 22",  # the heating, not the barn office light
        "heating down for the night",  # a word of time, no night bell
        "lock the back door",  # a verb before "the"
        "the dough's still rising, leave it",  # a word with 's names no mixer
        "put the boiler on for a shower",  # "a shower" is no one thing
        "the bread slicer on",  # another thing's word after it
        "Hugo's room light on",  # a room is no bathroom
        "greenhouse heater to 12",  # the words of a tool's own name
        "floodlight on the foredeck please",  # one name in two pieces: left as said
        "turn the light on",  # a kind word alone
        "turn on the quarantine bay 4 light",  # another number: a thing the home lacks
        "set the thermostat to 21 as well",  # "as well" names no well pump
        "fan on low",  # a setting said whole
        "dim the waiting area to 40",  # two names share it: no piece of it is one of them
        "radiator on in the cabin please",  # one name in two pieces, one a word of another
        "Wilfred's blinds up and Hugo's light off, his blanket too",  # whose is not said
        "turn her light off",  # no owner said before
    ],
)
def test_no_short_form_is_read_where_the_words_say_something_else(
    short: ShortNames, said: str
) -> None:
    assert short.written_in_full(said) == said


def test_the_reader_writes_names_in_full_only_when_asked() -> None:
    from agent.calling.grammar.remarks import PlainReader

    reader = PlainReader(HOME)
    assert reader.read("bilge pump on") == "bilge pump on"
    assert reader.read("bilge pump on", full_names=True) == "port side bilge pump on"
    # "one" after a name written in full is that name's kind, not the number 1
    assert (
        reader.read("steri room lights off, then the Juniper ones too", full_names=True)
        == "sterilisation back room lights off, then the Juniper practice room lights too"
    )
    # a taking back is read as said
    said = "bilge pump on, actually no cancel that"
    assert reader.read(said, full_names=True) == said


def test_the_bundled_model_serves_a_thing_said_by_a_short_form() -> None:
    """Read as said, "bilge pump on" picks the wrong thing or is doubted; read again with the
    name in full, it is the port side bilge pump. A confident refusal is not read again."""
    from agent.calling.session import Session
    from agent.model.bundled import GENERAL

    tools = home_tools(
        {
            "lights": {"kind": "simulated_lights", "rooms": ["saloon galley", "aft cabin"]},
            "plugs": {
                "kind": "tasmota",
                "switches": {"port side bilge pump": "t1", "shore power inverter": "t2"},
            },
            "relays": {
                "kind": "gpio_relays",
                "relays": {"freshwater deck pump": 5, "foredeck floodlight": 6},
            },
        }
    )
    s = Session(GENERAL, tools, threads=1)
    env = s.complete("bilge pump on")
    assert env["function_calls"] == [
        {"name": "set_switch", "arguments": {"device": "port side bilge pump", "action": "ON"}}
    ]
    assert env["confidence"] >= 0.7
    env = s.complete("don't switch the bilge pump on")
    assert env["function_calls"] == []


def test_a_thing_said_by_a_short_form_and_in_no_call_is_looked_for_again() -> None:
    """ "flood warning off, aerator off too" was served with the warning light alone, grounded
    (the rules do not read "aerator" as a name): a request with a short form is read again
    in full even after a grounded answer."""
    from agent.calling.session import Session
    from agent.model.bundled import GENERAL

    tools = home_tools(
        {
            "lights": {"kind": "simulated_lights", "rooms": ["upper grain loft", "glass lounge"]},
            "gear": {
                "kind": "gpio_relays",
                "relays": {"sluice gate motor": 17, "millpond aerator pump": 22},
                "tool": "set_mill_gear",
                "description": "Switch the mill's water gear on or off.",
            },
            "leds": {"kind": "gpio_leds", "leds": {"flood level warning light": 5}},
        }
    )
    s = Session(GENERAL, tools, threads=1)
    env = s.complete("flood warning off, aerator off too")
    assert env["function_calls"] == [
        {"name": "set_led", "arguments": {"led": "flood level warning light", "mode": "off"}},
        {"name": "set_mill_gear", "arguments": {"relay": "millpond aerator pump", "on": False}},
    ]


def test_a_refusal_of_a_request_with_a_short_form_is_read_again() -> None:
    """ "close Philippa's study blinds" is refused as said, confidently; read again with the
    study's name in full it is served. A taking back is never read again."""
    from agent.calling.grammar.remarks import cancels
    from agent.calling.session import Session
    from agent.model.bundled import GENERAL

    tools = home_tools(
        {
            "lights": {
                "kind": "simulated_lights",
                "rooms": ["Philippa's sermon study", "lodger's attic bedsit", "parish parlour"],
            },
            "blinds": {
                "kind": "simulated_blinds",
                "rooms": ["parish parlour", "Philippa's sermon study", "lodger's attic bedsit"],
            },
            "plugs": {"kind": "tasmota", "switches": {"vestry tea urn": "u", "burr grinder": "g"}},
        }
    )
    s = Session(GENERAL, tools, threads=1)
    env = s.complete("close Philippa's study blinds")
    assert env["function_calls"] == [
        {"name": "set_blinds", "arguments": {"room": "Philippa's sermon study", "position": 0}}
    ]
    assert cancels("grinder on, actually forget the grinder")
    assert s.complete("grinder on, actually forget the grinder")["function_calls"] == []


def test_a_plural_in_ies_is_its_singular() -> None:
    """ "the puppies' heat lamp" is the "puppy pen heat lamp"."""
    home = home_tools(
        {"plugs": {"kind": "tasmota", "switches": {"puppy pen heat lamp": "a", "kettle": "b"}}}
    )
    said = "could you put the puppies' heat lamp on"
    assert ShortNames(home).written_in_full(said) == "could you put the puppy pen heat lamp on"


def test_the_one_after_a_short_form_stands_for_the_thing() -> None:
    """ "the laundry one off" is the "laundry finished light"; a number's "one" after a
    room's word is still that number."""
    home = home_tools(
        {
            "leds": {
                "kind": "gpio_leds",
                "leds": {"laundry finished light": 5, "parcel at door light": 6},
            },
            "lights": {"kind": "simulated_lights", "rooms": ["bedroom 1", "bedroom 2"]},
        }
    )
    names = ShortNames(home)
    assert (
        names.written_in_full("parcel light on and the laundry one off")
        == "parcel at door light on and the laundry finished light off"
    )
    assert names.written_in_full("bedroom one light off") == "bedroom 1 light off"


def test_a_looser_ending_of_a_names_word_fits_it() -> None:
    """ "killie" is the "killifish shelf room", "the servants' stairs" the "old servants'
    staircase"; a word of four letters must still be the name's own start or end."""
    home = home_tools(
        {
            "lights": {
                "kind": "simulated_lights",
                "rooms": ["killifish shelf room", "old servants' staircase", "studio loft"],
            }
        }
    )
    names = ShortNames(home)
    assert (
        names.written_in_full("killie room lights down to 20 percent please")
        == "killifish shelf room lights down to 20 percent please"
    )
    assert (
        names.written_in_full("dim the servants' stairs to 20")
        == "dim the old servants' staircase to 20"
    )
    assert names.written_in_full("the stud light on") == "the stud light on"


def test_a_name_said_with_its_words_reordered_is_that_name() -> None:
    """ "the upstairs committee room" is the "committee room upstairs"; the words in the
    name's own order are the name itself and stay."""
    home = home_tools(
        {"lights": {"kind": "simulated_lights", "rooms": ["committee room upstairs", "bar"]}}
    )
    names = ShortNames(home)
    assert (
        names.written_in_full("Make the upstairs committee room bottle green.")
        == "Make the committee room upstairs bottle green."
    )
    said = "Make the committee room upstairs bottle green."
    assert names.written_in_full(said) == said


_LOOSE = home_tools(
    {
        "lights": {
            "kind": "simulated_lights",
            "rooms": ["ergo training room", "eights boat bay", "Jolene's tattoo booth"],
        },
        "relays": {
            "kind": "gpio_relays",
            "relays": {"franking machine": 5, "mast navigation lights": 6},
        },
        "plugs": {"kind": "tasmota", "switches": {"clippers charger": "t1", "erg fan": "t2"}},
        "leds": {"kind": "gpio_leds", "leds": {"Jolene's do-not-disturb lamp": 20}},
    }
)


def _pick(tool: str, key: str, value: str) -> list[dict]:
    return [{"name": tool, "arguments": {key: value}}]


@pytest.mark.parametrize(
    ("said", "picked", "meant"),
    [
        # a clipped word, another ending of the same word, an owner's short name
        (
            "nav lights on",
            _pick("set_relay", "relay", "mast navigation lights"),
            "navigation lights on",
        ),
        (
            "switch the franker on",
            _pick("set_relay", "relay", "franking machine"),
            "switch the franking on",
        ),
        (
            "bring Jo's booth up",
            _pick("set_light", "room", "Jolene's tattoo booth"),
            "bring Jolene's booth up",
        ),
        # written only as the thing the model picked: another pick leaves the words as said
        ("nav lights on", _pick("set_relay", "relay", "franking machine"), "nav lights on"),
        # a word of the home ("erg" is the fan's) is said as itself
        (
            "erg room lights to 80",
            _pick("set_light", "room", "ergo training room"),
            "erg room lights to 80",
        ),
        # a verb before its thing names no thing ("charge the clippers")
        (
            "charge the clippers",
            _pick("set_switch", "device", "clippers charger"),
            "charge the clippers",
        ),
    ],
)
def test_a_loose_form_of_a_picked_things_word_is_that_word(
    said: str, picked: list[dict], meant: str
) -> None:
    assert with_picked_forms(said, _LOOSE, picked) == meant


def test_a_loose_form_that_fits_two_words_of_the_home_is_left_as_said() -> None:
    home = home_tools(
        {"lights": {"kind": "simulated_lights", "rooms": ["navigation room", "navy bedroom"]}}
    )
    picked = _pick("set_light", "room", "navigation room")
    assert with_picked_forms("nav lights off", home, picked) == "nav lights off"


def test_a_two_letter_owner_and_a_hyphened_word_said_with_spaces() -> None:
    """ "Jo's" is the one owner of the home whose name begins so; a name's "do-not-disturb"
    said as three words is still that word."""
    home = home_tools(
        {
            "lights": {"kind": "simulated_lights", "rooms": ["Jolene's tattoo booth", "hall"]},
            "leds": {
                "kind": "gpio_leds",
                "leds": {"Jolene's do-not-disturb lamp": 20, "Marek's do-not-disturb lamp": 21},
            },
        }
    )
    names = ShortNames(home)
    assert names.written_in_full("Jo's do not disturb on") == "Jolene's do-not-disturb lamp on"
    assert names.written_in_full("Jo's booth light off") == "Jolene's tattoo booth light off"
    # an owner no name of the home begins so stays as said
    assert names.written_in_full("Al's booth light off") == "Al's booth light off"


def test_full_is_the_maximum_not_a_part_of_a_setting() -> None:
    home = home_tools(
        {
            "lights": {"kind": "simulated_lights", "rooms": ["timber store mezzanine", "bench"]},
            "fan": {"kind": "simulated_fan", "speeds": ["trickle draw", "full purge"]},
        }
    )
    names = ShortNames(home)
    said = "mezzanine light on at full"
    assert names.written_in_full(said) == "timber store mezzanine light on at full"
    assert names.written_in_full("fan on purge") == "fan on full purge"


def test_numbered_names_said_over_one_stem_are_each_written_in_full() -> None:
    """ "auto belay one and two off" is both auto belays; a number no name has is left."""
    from agent.calling.grammar.reading import with_numbers_shared

    names = ["auto belay 1", "auto belay 2", "booth 1", "booth 2", "booth 3"]
    assert (
        with_numbers_shared("auto belay one and two off", names)
        == "auto belay 1 and auto belay 2 off"
    )
    assert (
        with_numbers_shared("booth 1, 2 and 3 lights off", names)
        == "booth 1 and booth 2 and booth 3 lights off"
    )
    assert with_numbers_shared("booth 1 and 4 off", names) == "booth 1 and 4 off"
    assert with_numbers_shared("booth 2 and the hall", names) == "booth 2 and the hall"


def test_a_switch_after_a_short_form_is_no_ending_of_its_name() -> None:
    """The "on" after "the beacon" is the switch, not the end of "beacon"; a kind word that
    ends a name's word is still taken in ("moon light" for "moon night-light")."""
    tools = home_tools(
        {
            "leds": {"kind": "gpio_leds", "leds": {"mast beacon": 12, "solar fault": 13}},
            "relays": {"kind": "gpio_relays", "relays": {"bothy lantern": 5, "beck pump": 6}},
        }
    )
    short = ShortNames(tools)
    assert short.written_in_full("switch the beacon on") == "switch the mast beacon on"
    assert short.written_in_full("lantern on") == "bothy lantern on"
