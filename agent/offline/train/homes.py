"""Training data over a distribution of homes, so a model learns to read the tools it is given.

A model trained on one home learns that home's names as the only valid values. Here every group
of examples draws its own home: a random subset of needled's device kinds (1 to 8 tools), room
and device names drawn from large pools (multi-word names, possessives, numbered rooms, rare
words), enums of 1 to 10 values, varied ranges, and sometimes renamed tools or rewritten
descriptions (the config's `tool` / `description` overrides). A value is "unsupported" only when
*this* home's tools lack it, so the same word is valid in one group and refused in the next: the
only way to get both right is to read the prompt. Some groups are tool sets that are not about
homes at all, built from random schemas (enums, bounded numbers, booleans, optional
parameters), so the model learns to read parameter names and descriptions rather than memorise
the device kinds.

The tool schemas come from the device handlers themselves (:func:`devices.build_handlers` on a
generated config table), so training sees exactly what the daemon will put in the prompt. The
phrasings are sentence templates (syntax in :mod:`.synth`) written per device kind; the
examples are then drawn by :class:`.synth.Generator`, one generator per home.

Names used by the hand-written held-out homes (``tests/data/heldout_homes_names.json``) and a
fixed share of every pool are kept out of training; :func:`name_split` records the split.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from agent import DATA_DIR
from agent.offline.train.synth import Generator, JsonDict, parse_sentences

HELDOUT_NAMES = Path(__file__).resolve().parents[3] / "tests" / "data" / "heldout_homes_names.json"
DEMO_CONFIG = DATA_DIR / "default.toml"
DEMO_SENTENCES = DATA_DIR / "demo_sentences.ini"

# Refusals matter as much as calls: a home model that calls something for every sentence is
# worse than useless. `invalid` (a number outside the schema's range) joins the demo mix.
HOME_MIX = {
    "positive": 0.40,
    "two_actions": 0.16,
    "negated": 0.09,
    "off_topic": 0.11,
    "unsupported": 0.10,
    "invalid": 0.06,
    "missing": 0.08,
}
# Data version 6: more lists, and lists of three and four requests (held-out writers say a third
# of their multi-action requests with three actions; a model taught only pairs stops at two).
LIST_MIX = {**HOME_MIX, "positive": 0.36, "two_actions": 0.22}
LIST_ACTIONS = {2: 0.6, 3: 0.32, 4: 0.08}
# Data version 7 adds lists said over shared names ("lights off in the den and the hall") and
# remarks that ask nothing ("I'm off to bed, ...") around commands.
SHARED_PARAMS = ("room", "device", "relay", "led", "zone", "camera", "area", "recipient", "pet")
# What each data version asks of the generator beyond its home and seed.
_GENERATOR_SETTINGS: dict[int, dict[str, Any]] = {
    6: {"mix": LIST_MIX, "actions": LIST_ACTIONS},
    7: {
        "mix": LIST_MIX,
        "actions": LIST_ACTIONS,
        "shared": SHARED_PARAMS,
        "shared_share": 0.3,
        "remark_share": 0.12,
    },
}

# ----------------------------------------------------------------------------------------------
# name pools

_ROOM_BASES = """kitchen | living room | bedroom | bathroom | office | hallway | garage
| dining room | guest room | nursery | playroom | study | library | laundry room
| utility room | basement | attic
| loft | porch | patio | garden | balcony | terrace | conservatory | sunroom | den | lounge
| family room | master bedroom | kids room | spare room | box room | cellar | workshop | shed
| pantry | hall | landing | stairs | entrance | foyer | mudroom | closet | wardrobe | gym
| home gym | music room | media room | cinema room | games room | craft room | sewing room
| reading nook | back room | front room | sitting room | drawing room | parlour | snug | annex
| studio | garden room | summer house | pool house | sauna | wine cellar | boot room | scullery
| larder | washroom | powder room | ensuite | shower room | toilet | wc | upstairs hall
| downstairs hall | driveway | carport | deck | veranda | courtyard | greenhouse | orangery
| atrium | gallery | observatory | tower room | server room | boiler room | storage room
| lobby | reception | meeting room | break room | back office | front desk | shop floor
| stockroom | barn | stable | chicken coop | kennel | cabin | bunk room | attic bedroom
| basement office | top floor | ground floor | first floor | second floor | east wing | west wing"""
_PEOPLE = """Ana | Ben | Carla | Dev | Emma | Felix | Grace | Hugo | Ines | Jonas | Kemi | Liam
| Maya | Noah | Olga | Pedro | Quinn | Rosa | Sami | Tara | Umar | Vera | Wen | Ximena | Yusuf | Zoe
| Alba | Bruno | Chloe | Dmitri | Elif | Farah | Gus | Hana | Ivo | Jade | Kai | Lena | Milo
| Nina | Oscar | Priya | Rafa | Sofia | Theo | Uma | Viktor | Willa | Yara | Zain | grandma
| grandpa | mum | dad | the baby | the twins | the kids""".replace("\n", " ")
_PERSON_PLACES = ["room", "bedroom", "office", "study", "den", "nursery", "bathroom", "corner"]
_NUMBERED = ["bedroom", "bathroom", "office", "room", "guest room", "kids room", "floor", "studio"]
_DEVICE_NAMES = """coffee maker | kettle | aquarium pump | fish tank light | christmas tree
| heater | space heater | electric blanket | dehumidifier | humidifier | air purifier
| desk lamp | floor lamp | reading lamp | bedside lamp | string lights | fairy lights
| garden lights | fountain | pond pump | pool pump | sprinkler | irrigation valve | water heater
| boiler | towel rail | fan heater | printer | 3d printer | monitor | tv | television | soundbar
| amplifier | record player | radio | router | modem | charger | phone charger | laptop charger
| ev charger | washing machine | dryer | dishwasher | fridge | freezer | chest freezer
| slow cooker | rice cooker | toaster | waffle iron | air fryer | oven fan | extractor fan
| cooker hood | bathroom fan | ceiling fan | porch light | gate light | shed light | garage light
| doorbell | gate opener | garage door | door strike | alarm siren | buzzer | grow light
| heat lamp | reptile lamp | terrarium heater | incubator | bread maker | espresso machine
| milk frother | water pump | bilge pump | well pump | sump pump | hot tub | sauna heater
| projector | game console | speaker | subwoofer | led strip | neon sign | lava lamp | salt lamp
| massage chair | treadmill | exercise bike | heated floor | mirror heater | window fan
| box fan | tower fan | bug zapper | mosquito trap | chicken coop door | dog heater
| solar pump | attic fan | vent | dryer fan | kiln | soldering station | workbench light
| compressor | dust extractor | band saw | lathe | router table | sewing machine""".replace(
    "\n", " "
)
_DEVICE_QUALIFIERS = [
    "left",
    "right",
    "upstairs",
    "downstairs",
    "kitchen",
    "office",
    "garden",
    "back",
    "front",
    "big",
    "small",
    "old",
    "new",
    "main",
    "spare",
]
_LED_NAMES = """status | power | network | wifi | error | warning | alarm | ready | busy | record
| mail | door | garage | front door | back door | heating | battery | signal | mode | fault | ok
| red | green | blue | amber | porch | desk | panel | north | south""".replace("\n", " ")
_COLORS = """white | warm white | cool white | daylight | red | orange | yellow | green | blue
| purple | pink | cyan | magenta | teal | turquoise | lime | amber | gold | violet | lavender
| indigo | crimson | coral | salmon | peach | mint | sky blue | navy | ice blue | candle
| sunset | forest green | rose | lilac | aqua""".replace("\n", " ")
_SPEED_SETS = [
    ["low", "medium", "high"],
    ["low", "high"],
    ["slow", "fast"],
    ["quiet", "normal", "turbo"],
    ["sleep", "low", "medium", "high", "max"],
    ["eco", "normal", "boost"],
    ["1", "2", "3"],
    ["gentle", "breeze", "strong", "storm"],
    ["night", "day"],
    ["low", "medium", "high", "turbo", "auto"],
    ["whisper", "low", "mid", "high", "jet"],
    ["auto"],
]


def _split(text: str) -> list[str]:
    return [w.strip() for w in text.split("|") if w.strip()]


def _all_rooms() -> list[str]:
    rooms = _split(_ROOM_BASES)
    people = _split(_PEOPLE)
    rooms += [f"{p}'s {place}" for p in people for place in _PERSON_PLACES]
    rooms += [f"{base} {n}" for base in _NUMBERED for n in range(1, 5)]
    return rooms


def _all_devices() -> list[str]:
    devs = _split(_DEVICE_NAMES)
    base = list(devs)
    devs += [f"{q} {d}" for q in _DEVICE_QUALIFIERS for d in base[:40]]
    people = _split(_PEOPLE)[:20]
    devs += [f"{p}'s {d}" for p in people for d in ("lamp", "heater", "fan", "charger", "tv")]
    return devs


def _norm(name: str) -> str:
    return name.strip().lower()


def _eval_share(name: str) -> bool:
    """A fixed 15% of every pool is kept for evaluation (by hash: stable across runs)."""
    return hashlib.sha256(_norm(name).encode()).digest()[0] < 38


def heldout_names(path: Path = HELDOUT_NAMES) -> set[str]:
    """Names the hand-written held-out homes use (lowercased); empty when the file is absent."""
    if not path.exists():
        return set()
    return {_norm(n) for n in json.loads(path.read_text(encoding="utf-8"))}


# The demo home's own names stay trainable: its held-out set measures the bundled model on the
# home it ships with.
_DEMO_NAMES = {"kitchen", "living room", "bedroom", "bathroom", "low", "medium", "high"}


def name_split(heldout: Iterable[str] | None = None) -> dict[str, dict[str, list[str]]]:
    """The pools, each split into `train` and `eval` names (disjoint)."""
    held = set(heldout_names() if heldout is None else {_norm(n) for n in heldout})
    pools = {
        "rooms": _all_rooms(),
        "devices": _all_devices(),
        "leds": _split(_LED_NAMES),
        "colors": _split(_COLORS),
    }
    out: dict[str, dict[str, list[str]]] = {}
    for key, names in pools.items():
        seen: set[str] = set()
        train, ev = [], []
        for n in names:
            k = _norm(n)
            if k in seen:
                continue
            seen.add(k)
            demo = k in _DEMO_NAMES
            if not demo and (k in held or _eval_share(k)):
                ev.append(n)
            else:
                train.append(n)
        out[key] = {"train": train, "eval": ev}
    # Fan speeds come as whole sets (a speed only makes sense beside its neighbours): a set
    # keeps its training words, and the held-out ones go to the evaluation side.
    speeds_train, speeds_eval = [], set()
    for ss in _SPEED_SETS:
        keep = [s for s in ss if _norm(s) not in held or _norm(s) in _DEMO_NAMES]
        speeds_eval |= {s for s in ss if s not in keep}
        if keep and keep not in speeds_train:
            speeds_train.append(keep)
    out["speed_sets"] = {
        "train": [" | ".join(ss) for ss in speeds_train],
        "eval": sorted(speeds_eval),
    }
    return out


# ----------------------------------------------------------------------------------------------
# templates per device kind ({p} slots are parameter names of the kind's schema)

_LIGHT_TEMPLATES = """
(turn | switch | put) on{on:true} [the] [light[s] in the] {room} [light | lights | lamp]
(turn | switch | put) [the] {room} (light | lights | lamp) on{on:true}
(turn | switch) (off){on:false} [the] [light[s] in the] {room} [light | lights | lamp]
(turn | switch | shut) [the] {room} (light | lights | lamp) off{on:false}
(lights | light) (on){on:true} in [the] {room}
(lights | light) (off){on:false} in [the] {room}
{room} (light | lights) (on){on:true}
{room} (light | lights) (off){on:false}
(kill | cut) the (light | lights) in the {room} {on:false}
light up the {room} {on:true}
it's (too dark | so dark | dark) in the {room} {on:true}
I can't see (anything | a thing) in the {room} {on:true}
(dim | set | put | turn) the {room} (light | lights) (to | at) {brightness} [percent | %]
(set | change) [the] brightness (in | of) the {room} [light[s]] to {brightness} [percent]
{room} (light | lights) (to | at) {brightness} [percent]
(turn | switch) on{on:true} the {room} (light | lights) (at | to) {brightness} [percent]
(max | full)[imum]{brightness:100} brightness in the {room}
(make | turn | set | change) the {room} (light | lights) [to] {color}
(change | switch | set) the colo[u]r (in | of) the {room} [light | lights] to {color}
{color} (light | lights) in the {room}
(turn | switch) on{on:true} the {room} (light | lights) in {color}
(turn | switch) on{on:true} the (light | lights)
(turn | switch) off{on:false} the (light | lights)
(dim | set) the (light | lights) to {brightness} [percent]
make the (light | lights) {color}
it's too dark in here {on:true}
"""
# Lights whose schema takes a transition (zigbee2mqtt): how long the change takes, in seconds.
_TRANSITION_TEMPLATES = """
(fade | turn | switch) on{on:true} the {room} (light | lights) over (1..30){transition} seconds
(fade | turn | switch) off{on:false} the {room} (light | lights) over (1..30){transition} seconds
fade (out | off){on:false} the {room} (light | lights) over (1..60){transition} seconds
fade the {room} (light | lights) (on){on:true} over (1..20){transition} seconds
(dim | fade | set | bring) the {room} (light | lights) to {brightness} [percent] over (1..30){transition} seconds
(dim | fade | set) the {room} (light | lights) to {brightness} [percent] with a (1..10){transition} second (fade | transition)
{room} (light | lights) to {brightness} [percent] over (1..20){transition} seconds
(change | set | fade) the {room} (light | lights) to {color} over (1..20){transition} seconds
(turn | switch) off{on:false} the {room} (light | lights) with a (1..10){transition} second fade
"""  # noqa: E501
_LIGHT_OFFTOPIC = """
play [some] (music | jazz | the radio | a podcast) in the {room}
is the {room} light on
how (warm | cold | hot) is it in the {room}
(clean | vacuum | tidy) the {room}
(lock | close) the {room} (door | window)
who is in the {room}
(buy | order) a new (lamp | bulb) for the {room}
"""
_THERMOSTAT_TEMPLATES = """
(set | put | change | turn) the (thermostat | heating | temperature) to {temperature} [degrees]
(make | keep) it {temperature} degrees [in here | in the house]
(I want | I'd like) it [to be] {temperature} degrees [in here]
(warm | heat) (it | the house) up to {temperature} [degrees]
(cool | bring) (it | the house) down to {temperature} [degrees]
thermostat [to] {temperature} [degrees]
temperature {temperature} [degrees] [please]
(set | switch | put | change) the thermostat to {mode} [mode]
(switch | put) the (heating | thermostat) (in | into | to) {mode} mode
{mode} mode [on the thermostat]
(turn | switch) (on | up) the heating{mode:heat}
(turn | switch) on the (ac | air conditioning | cooling){mode:cool}
(turn | switch) (off){mode:off} the (heating | thermostat)
(set | switch) the thermostat to {mode} (at | and) {temperature} [degrees]
(heat | cool){mode} the house to {temperature} [degrees]
(set | change) the (thermostat | temperature)
(make it | it should be) (warmer | cooler | a bit warmer | a bit colder)
"""
_THERMOSTAT_OFFTOPIC = """
what's the temperature (outside | in the garden | tomorrow)
(is | was) the heating on
how much did the heating cost [this month]
"""
_BLINDS_TEMPLATES = """
open{position:100} the {room} (blinds | shades)
open{position:100} the (blinds | shades) in the {room}
(close | shut){position:0} the {room} (blinds | shades)
(close | shut){position:0} the (blinds | shades) in the {room}
(set | move | put) the {room} (blinds | shades) to {position} [percent | %]
(raise | lower | move) the (blinds | shades) in the {room} to {position} [percent]
{room} (blinds | shades) (to | at) {position} [percent]
open the {room} (blinds | shades) (halfway | half way | half){position:50}
(draw | pull down) the {room} (blinds | shades) {position:0}
open{position:100} the (blinds | shades)
(close | shut){position:0} the (blinds | shades)
(set | move | adjust) the {room} (blinds | shades)
"""
_BLINDS_OFFTOPIC = """
(are | is) the {room} blinds open
(clean | dust) the blinds in the {room}
"""
_FAN_TEMPLATES = """
(turn | switch | put) on{on:true} the fan
(turn | switch | shut) off{on:false} the fan
(turn | switch) the fan off{on:false}
(stop){on:false} the fan
(start){on:true} the fan
fan (on){on:true}
fan (off){on:false}
(set | change) the fan [speed] to {speed}
fan [speed] to {speed}
{speed} fan [speed]
(turn | switch | put) on{on:true} the fan (to | on | at) {speed} [speed]
run the fan (on | at) {speed} [speed]
it's (stuffy | so stuffy) in here {on:true}
(change | adjust) the fan [speed]
"""
_FAN_OFFTOPIC = """
is the fan (on | running)
(clean | dust) the fan
"""
_SWITCH_TEMPLATES = """
(turn | switch | power) on{action:ON} the {device}
(turn | switch | power) the {device} on{action:ON}
(turn | switch | power | shut) off{action:OFF} the {device}
(turn | switch | power | shut) the {device} off{action:OFF}
(toggle | flip){action:TOGGLE} the {device}
{device} (on){action:ON}
{device} (off){action:OFF}
(start){action:ON} the {device}
(stop | kill){action:OFF} the {device}
(turn | switch) on{action:ON} the (plug | socket)
(turn | switch) the {device}
"""
_SWITCH_OFFTOPIC = """
is the {device} (on | off | plugged in)
how much power does the {device} (use | draw)
(buy | order) a new {device}
(clean | fix | repair) the {device}
"""
_RELAY_TEMPLATES = """
(turn | switch | power) on{on:true} the {relay}
(turn | switch | power) the {relay} on{on:true}
(turn | switch | power | shut) off{on:false} the {relay}
(turn | switch | shut) the {relay} off{on:false}
{relay} (on){on:true}
{relay} (off){on:false}
(start){on:true} the {relay}
(stop | kill){on:false} the {relay}
(turn | switch) on{on:true} the relay
(turn | switch) the {relay}
"""
_RELAY_OFFTOPIC = """
is the {relay} (on | running)
(clean | fix | service) the {relay}
"""
_LED_TEMPLATES = """
(turn | switch) on{mode:on} the {led} (led | light | indicator)
(turn | switch) the {led} (led | light | indicator) on{mode:on}
(turn | switch) off{mode:off} the {led} (led | light | indicator)
(turn | switch) the {led} (led | light | indicator) off{mode:off}
(make | let) the {led} (led | light | indicator) (blink | flash){mode:blink}
(blink | flash){mode:blink} the {led} (led | light)
{led} (led | light) (on){mode:on}
{led} (led | light) (off){mode:off}
{led} (led | light) (blink | flashing){mode:blink}
(turn | switch) on{mode:on} the (led | indicator)
(set | change) the {led} (led | light)
"""
_LED_OFFTOPIC = """
why is the {led} (led | light) (on | red | blinking)
what does the {led} (led | light) mean
"""

_LOG_TEMPLATES = """
(note | write down | log | remember | jot down) that {message}
make a note that {message}
(add | put) a note [saying] that {message}
(log | note) a warning{level:warning} that {message}
(log | note) an error{level:error} that {message}
(please note | note) {message}
(make a note | take a note | write a note)
"""
_LOG_OFFTOPIC = """
(read | show) me my notes
what did I (note | write down) (yesterday | today)
"""
_NOTES = """the plumber comes on tuesday | the boiler was serviced today | we are out of milk
| the cat had her injection | the bins go out on thursday | the filter needs changing
| the gate was left open | the parcel arrived | the smoke alarm battery is low
| the window in the hall is stuck | the car is due for a service | grandma called
| the dog was fed at six | the heating felt cold this morning | the printer is out of ink
| the water meter reads forty two | the garden was watered | the fuse box tripped
| the neighbours are away this week | the kids have a dentist appointment on friday
| the router was restarted | the freezer was defrosted | the lawn needs mowing
| the shed roof leaks | the spare key is with ana | the heating oil was delivered
| the pool was cleaned | the chickens were let out | the solar panels were cleaned
| out of coffee beans | back in ten minutes | delivery expected at noon | call the electrician
| low on dish soap | fridge door does not close | wifi is down again | buy more bin bags
| meeting moved to monday | keys are under the mat | water the plants tomorrow
| order more firewood | tap in the bathroom drips | payment received | scanner jammed
| lock the shed tonight | check the tyre pressure | hall needs a new bulb | sold out of scones
| closed early today | mop the floor | book the vet | boiler makes a noise
| remember the recycling | printer needs paper | eggs collected | fence post broken
| gas bill paid | spare batteries in the drawer | guests arrive at five""".replace("\n", " ")

_BASE_OFFTOPIC = """
what's the weather (like | going to be) [today | tomorrow]
tell me a joke
what time is it
(set | start) a timer for (ten minutes | an hour)
remind me to (call mom | buy milk) [tomorrow]
(order | buy) (a pizza | more coffee)
(thanks | thank you) [so much]
(good morning | good night | hello | hi there)
what's on my calendar
(play | put on) some (music | jazz | rock)
how do I (make pancakes | boil an egg)
"""

# kind -> (default tool name, alternative tool names, alternative descriptions, templates,
# off-topic templates)
# More ways to say the same commands, drawn from data version 3 on (and when adapting to a
# home): the short forms people use with a name they chose themselves ("make the pantry teal",
# "fan to gale", "close the skylight") next to the longer ones above.
_MORE_LIGHT = """
make the {room} {color}
{color} in the {room} [please]
{room} (light | lights | lamp) [to] {color}
(I want | give me) {color} (light | lighting) in the {room}
(bathe | fill) the {room} (in | with) {color} [light]
{room} (to | at) {brightness} [percent | %]
(brighten | dim) the {room} [lights] to {brightness} [percent | %]
(turn | switch) [the] (light | lights) on{on:true} in the {room}
(turn | switch) [the] (light | lights) off{on:false} in the {room}
(light | lights) (on){on:true} (over | by) the {room}
(turn | switch) the {room} (on){on:true}
(turn | switch) the {room} (off){on:false}
(brightness | light | lights) (to | at) {brightness} [percent | %] in the {room}
"""
_MORE_THERMOSTAT = """
(heating | thermostat | heat) to {temperature} [degrees]
(bump | turn | push) the (heating | thermostat) (up | down) to {temperature} [degrees]
(heating | thermostat) (on | to) {mode} [mode] [please]
(turn | switch) the (heating | thermostat) off{mode:off}
(keep | hold) (it | the place) at {temperature} [degrees]
"""
_MORE_BLINDS = """
(open){position:100} [the] {room} [blinds | shades]
(close | shut){position:0} [the] {room} [blinds | shades]
(raise){position:100} the {room} (blinds | shades)
(lower){position:0} the {room} (blinds | shades)
(blinds | shades) in the {room} (to | at) {position} [percent | %]
(open){position:100} {room} (blinds | shades)
"""
_MORE_FAN = """
fan (to | at) {speed}
(put | set) the fan (on | to) {speed}
{speed} (speed | setting) [on the fan] [please]
(turn | switch) the fan (up | down) to {speed}
(turn | switch) the fan on{on:true} at {speed} [speed]
"""
_MORE_SWITCH = """
(cut | kill) [the] power to the {device}{action:OFF}
(switch | turn) the {device} (on){action:ON} please
(start up | fire up){action:ON} the {device}
(shut down){action:OFF} the {device}
{device} (on){action:ON} please
"""
_MORE_RELAY = """
(cut | kill) [the] power to the {relay}{on:false}
(start up | fire up){on:true} the {relay}
(shut down){on:false} the {relay}
(run){on:true} the {relay}
{relay} (on){on:true} please
"""
_MORE_LED = """
(light up){mode:on} the {led} (led | light | indicator)
(blink | flash){mode:blink} the {led}
{led} (led | light | indicator) to (blink){mode:blink}
{led} (on){mode:on}
{led} (off){mode:off}
"""
# (the log kind is never drawn for general training: these serve adapting to a home)
_MORE_LOG = """
(jot down | write down | note down | log) {message}
(log | record) a warning{level:warning} {message}
(log | record) an error{level:error} {message}
(put | write) (in | into) the (log | logbook | notes) that {message}
(add | write) (to | in) the (log | logbook) {message}
(add | put) a (warning{level:warning} | error{level:error}) (in | to) the (log | logbook) {message}
"""
# Notes said as people write them: a label and a colon, or told to the people who read them.
_LOG_LABELS = """
(note | reminder | memo | heads up): {message}
(tell | let) (everyone | the team | the family | the staff | the others) [know] [that] {message}
"""
_PREPOSITIONS = ("on", "in", "into", "onto", "to", "at")


def own_log_phrasings(description: str) -> str:
    """Templates in the owner's words for a notes tool, from its description: "Pin a short note
    on the staff board." gives "pin a note: ...", "pin on the staff board that ...", "post a
    warning on the board: ..." (the verb, the thing written and where it goes). The log kind's
    stock phrasings say "note" and "log"; an owner who wrote "pin" and "board" says those."""
    first = re.split(r"[,.;:(]", description.lower(), maxsplit=1)[0]
    ws = re.findall(r"[a-z][a-z'-]*", first)
    at = next((i for i, w in enumerate(ws) if i > 1 and w in _PREPOSITIONS), None)
    if len(ws) < 2 or at is None or at + 1 >= len(ws):
        return _LOG_LABELS
    verb, prep = ws[0], ws[at]
    thing = [w for w in ws[1:at] if w not in ("a", "an", "the", "short", "small", "quick", "new")]
    place = [w for w in ws[at + 1 :] if w not in ("a", "an", "the")]
    if not thing or not place:
        return _LOG_LABELS
    noun = thing[-1]
    art = "an" if noun[0] in "aeiou" else "a"
    where = " | ".join(dict.fromkeys([" ".join(place), place[-1]]))
    return _LOG_LABELS + (
        f"{verb} {art} {noun}: {{message}}\n"
        f"{verb} {art} {noun} [saying | that] {{message}}\n"
        f"({verb} | put | post) {art} {noun} {prep} the ({where}): {{message}}\n"
        f"{verb} {prep} the ({where}) [that] {{message}}\n"
        f"({verb} | post | put) a (warning{{level:warning}} | note) {prep} the ({where}):"
        f" {{message}}\n"
        f"({verb} | post | put) a warning{{level:warning}} {prep} the ({where}) that {{message}}\n"
        f"(add | write) (to | on) the ({where}): {{message}}\n"
    )


_MORE_PHRASINGS = {
    "log": _MORE_LOG,
    "simulated_lights": _MORE_LIGHT,
    "zigbee2mqtt_lights": _MORE_LIGHT,
    "simulated_thermostat": _MORE_THERMOSTAT,
    "simulated_blinds": _MORE_BLINDS,
    "simulated_fan": _MORE_FAN,
    "tasmota": _MORE_SWITCH,
    "gpio_relays": _MORE_RELAY,
    "gpio_leds": _MORE_LED,
}

_KINDS: dict[str, tuple[str, list[str], list[str], str, str]] = {
    "simulated_lights": (
        "set_light",
        ["lights", "control_lights", "light_control", "set_lamp", "room_light", "lighting"],
        ["Control the lights in a room: on/off, brightness and colour.", "Room lighting."],
        _LIGHT_TEMPLATES,
        _LIGHT_OFFTOPIC,
    ),
    "zigbee2mqtt_lights": (
        "set_light",
        ["zigbee_light", "set_bulb", "lamps", "hue_lights"],
        ["Zigbee bulbs by room.", "Turn smart bulbs on or off, dim them or change colour."],
        _LIGHT_TEMPLATES,
        _LIGHT_OFFTOPIC,
    ),
    "simulated_thermostat": (
        "set_thermostat",
        ["thermostat", "heating", "climate", "set_temperature", "hvac"],
        ["Heating and cooling: target temperature in Celsius, or the mode.", "The thermostat."],
        _THERMOSTAT_TEMPLATES,
        _THERMOSTAT_OFFTOPIC,
    ),
    "simulated_blinds": (
        "set_blinds",
        ["blinds", "shades", "set_shutters", "window_cover", "curtains"],
        ["Move the blinds of a room (0 closed, 100 open).", "Window coverings by room."],
        _BLINDS_TEMPLATES,
        _BLINDS_OFFTOPIC,
    ),
    "simulated_fan": (
        "set_fan",
        ["fan", "ventilation", "control_fan", "air_flow"],
        ["The ceiling fan: on, off and speed.", "Ventilation fan."],
        _FAN_TEMPLATES,
        _FAN_OFFTOPIC,
    ),
    "tasmota": (
        "set_switch",
        ["plugs", "smart_plug", "power", "set_plug", "outlet", "switch_device"],
        ["Smart plugs: ON, OFF or TOGGLE a device.", "Power sockets with a device on each."],
        _SWITCH_TEMPLATES,
        _SWITCH_OFFTOPIC,
    ),
    "gpio_relays": (
        "set_relay",
        ["relays", "relay_switch", "power_relay", "set_power"],
        ["Relay board outputs.", "Switch a device wired to a relay on or off."],
        _RELAY_TEMPLATES,
        _RELAY_OFFTOPIC,
    ),
    "gpio_leds": (
        "set_led",
        ["leds", "indicator", "status_light", "set_indicator"],
        ["Panel LEDs: on, off or blink.", "Indicator lights on the device."],
        _LED_TEMPLATES,
        _LED_OFFTOPIC,
    ),
    # Not drawn for the general model (it stays a kind the model never saw, so the start-up
    # check and `needled train --config` have a real case); used when adapting to a home.
    "log": (
        "log_message",
        ["note", "take_note", "diary", "notify"],
        ["Write a note to the log.", "Keep a note."],
        _LOG_TEMPLATES,
        _LOG_OFFTOPIC,
    ),
}
HOME_KINDS = tuple(k for k in _KINDS if k != "log")
# Parameters whose values are names drawn from a pool (name -> pool).
_NAME_PARAMS = {"room": "rooms", "device": "devices", "relay": "devices", "led": "leds"}


# Invented names. Every pooled name is valid in many training homes, so a model can learn
# "a name I have seen is a room" instead of reading the prompt, and then refuses a real home's
# names it never saw. Words made up per home, as often unsupported as valid, take that cue away.
_ONSETS = "b bl br c ch d dr f fl g gr h j k l m n p pl pr r s sh sk st t th tr v w y z".split()
_VOWELS = "a e i o u a e i o ai ea oo ou ie".split()
_CODAS = ["", "", "", "n", "r", "l", "m", "st", "ck", "th", "x", "nd", "sh"]
_ROOM_HEADS = "room den study nook loft bay hall corner suite annexe".split()
_DEVICE_HEADS = "lamp pump heater fan plug charger light radio kettle speaker".split()


def invented_word(rng: random.Random) -> str:
    """A pronounceable made-up word of 1 to 3 syllables ("brimo", "staunel")."""
    n = rng.choice([1, 2, 2, 2, 3])
    return "".join(
        rng.choice(_ONSETS) + rng.choice(_VOWELS) + (rng.choice(_CODAS) if i == n - 1 else "")
        for i in range(n)
    )


def invented_names(
    rng: random.Random,
    pool: str,
    k: int,
    taken: set[str],
    heads: Mapping[str, Sequence[str]] | None = None,
) -> list[str]:
    """`k` made-up names shaped like the pool's: rooms, devices or LEDs. `heads` replaces the
    short lists of head nouns ("brimo pump") with others per pool."""
    room_heads = list(heads["rooms"]) if heads else _ROOM_HEADS
    device_heads = list(heads["devices"]) if heads else _DEVICE_HEADS
    out: list[str] = []
    while len(out) < k:
        w = invented_word(rng)
        form = rng.random()
        if pool == "rooms":
            name = (
                w
                if form < 0.3
                else f"{w.capitalize()}'s {rng.choice(room_heads)}"
                if form < 0.55
                else f"{w} {rng.choice(room_heads)}"
                if form < 0.85
                else f"{w} {rng.randint(1, 4)}"
            )
        elif pool == "devices":
            name = (
                w
                if form < 0.25
                else f"{w} {rng.choice(device_heads)}"
                if form < 0.8
                else f"{w.capitalize()}'s {rng.choice(device_heads)}"
            )
        else:
            name = w if form < 0.6 else f"{w} led"
        if _norm(name) not in taken:
            taken.add(_norm(name))
            out.append(name)
    return out


def with_invented(
    rng: random.Random,
    pools: Mapping[str, Sequence[str]],
    share: float,
    exclude: set[str],
    heads: Mapping[str, Sequence[str]] | None = None,
) -> dict[str, list[str]]:
    """`pools` where names of rooms, devices and LEDs are `share` invented for this home (the
    same share for the names a home has and the unsupported ones it is asked about); `heads`
    as `invented_names` takes them."""
    out = {k: list(v) for k, v in pools.items()}
    taken = set(exclude)
    for key, size in (("rooms", 24), ("devices", 24), ("leds", 8)):
        real = rng.sample(out[key], min(len(out[key]), max(1, round(size * (1 - share)))))
        out[key] = real + invented_names(rng, key, max(1, round(size * share)), taken, heads)
    return out


def _last_words(names: Iterable[str]) -> list[str]:
    return sorted({n.split()[-1].lower() for n in names if not n.split()[-1].isdigit()})


def with_invented_v3(
    rng: random.Random, pools: Mapping[str, Sequence[str]], exclude: set[str]
) -> dict[str, list[str]]:
    """Version 3's home pools: a share of 30 to 90% of the names (rooms, devices, LEDs, colours
    and fan speeds) made up, heads taken from every training name ("brimo freezer", not only
    "brimo pump"), and tool-name qualifiers that may be one of the home's own words
    ("set_brimo_lights"), so that neither a name nor a tool name is a cue the model can
    memorise: it must read the prompt."""
    share = rng.uniform(0.3, 0.9)
    heads = {
        "rooms": _last_words(pools["rooms"]) or _ROOM_HEADS,
        "devices": _last_words(pools["devices"]) or _DEVICE_HEADS,
    }
    out = with_invented(rng, pools, share, exclude, heads)
    real = rng.sample(out["colors"], min(len(out["colors"]), max(1, round(14 * (1 - share)))))
    out["colors"] = real + [invented_word(rng) for _ in range(max(1, round(14 * share)))]
    if rng.random() < share:
        out["speed_sets"] = [
            " | ".join(dict.fromkeys(invented_word(rng) for _ in range(rng.randint(2, 5))))
            for _ in range(4)
        ]
    quals = [w for n in out["rooms"] + out["devices"] for w in n.lower().split() if w.isalpha()]
    out["tool_qualifiers"] = list(_TOOL_QUALIFIERS) + rng.sample(quals, min(12, len(quals)))
    return out


def _pick(rng: random.Random, pool: Sequence[str], lo: int, hi: int) -> list[str]:
    k = rng.randint(lo, min(hi, len(pool)))
    return rng.sample(list(pool), k)


def _label(name: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in name.lower()).strip("_") or "x"


def device_table(kind: str, rng: random.Random, pools: Mapping[str, Sequence[str]]) -> JsonDict:
    """A random config table for one device of `kind` (names from `pools`)."""
    t: JsonDict = {"kind": kind}
    if kind in ("simulated_lights", "simulated_blinds"):
        t["rooms"] = _pick(rng, pools["rooms"], 1, 8 if kind == "simulated_lights" else 5)
        if kind == "simulated_lights" and rng.random() < 0.6:
            t["colors"] = _pick(rng, pools["colors"], 1, 10)
    elif kind == "zigbee2mqtt_lights":
        t["devices"] = {r: f"{_label(r)}_bulb" for r in _pick(rng, pools["rooms"], 1, 8)}
    elif kind == "simulated_thermostat":
        lo = rng.choice([5, 7, 10, 12, 15, 16, 17])
        hi = rng.choice([24, 25, 26, 28, 30, 32, 35])
        t["min_temperature"], t["max_temperature"] = lo, hi
    elif kind == "simulated_fan":
        t["speeds"] = rng.choice(pools["speed_sets"]).split(" | ")
    elif kind == "tasmota":
        t["switches"] = {d: _label(d) for d in _pick(rng, pools["devices"], 1, 8)}
    elif kind == "gpio_relays":
        t["relays"] = {d: 5 + i for i, d in enumerate(_pick(rng, pools["devices"], 1, 8))}
    elif kind == "gpio_leds":
        t["leds"] = {d: 20 + i for i, d in enumerate(_pick(rng, pools["leds"], 1, 6))}
    else:
        raise ValueError(f"no generator for device kind {kind!r}")
    default, names, descriptions, _, _ = _KINDS[kind]
    r = rng.random()
    if r < 0.15:
        t["tool"] = rng.choice(names)
    elif r < 0.5:
        t["tool"] = made_tool_name(kind, rng, pools.get("tool_qualifiers"))
    r = rng.random()
    if r < 0.1:
        t["description"] = rng.choice(descriptions)
    elif r < 0.5:
        t["description"] = made_description(kind, rng, t.get("tool"))
    return t


# Tool names and descriptions a user might give each kind in the config, built from parts so
# the model learns to read them rather than memorise a handful. Words that the hand-written
# held-out homes use in their tool names are never drawn (HELDOUT_TOOL_WORDS), so those names
# stay unseen in training.
_GROUP = {
    "simulated_lights": "lights",
    "zigbee2mqtt_lights": "lights",
    "simulated_thermostat": "thermostat",
    "simulated_blinds": "blinds",
    "simulated_fan": "fan",
    "tasmota": "switch",
    "gpio_relays": "relay",
    "gpio_leds": "led",
    "log": "log",
}
_KIND_NOUNS = {
    "lights": "light lights lamp lamps bulb bulbs lighting room_lights downlights spotlights"
    " pendant house_lights",
    "thermostat": "thermostat heating heater radiator radiators heat_pump furnace hvac"
    " temperature aircon air_conditioner underfloor stove wood_burner",
    "blinds": "blinds blind shutters curtains roller_blind awning drapes window_blinds louvres"
    " screens",
    "fan": "fan fans extractor desk_fan cooling_fan exhaust_fan air_purifier tower_fan",
    "switch": "switch switches plug plugs socket sockets smart_plug power_strip mains",
    "relay": "relay relays contactor circuit circuits channel output outputs power",
    "led": "led leds indicator indicators status_light beacon pilot_light lamp_panel",
    "log": "log note notes logbook journal message",
}
_TOOL_FORMS = (
    "set_{n}",
    "set_{n}",
    "{n}",
    "control_{n}",
    "{n}_control",
    "switch_{n}",
    "{q}_{n}",
    "set_{q}_{n}",
    "my_{n}",
    "adjust_{n}",
    "{n}_{q}",
)
_TOOL_QUALIFIERS = (
    "home house main upstairs downstairs kitchen outdoor indoor smart flat cabin office loft"
    " porch patio cottage bedroom hall cellar caravan attic basement garage van workroom"
).split()
# Distinctive words of the held-out homes' tool names (tests/data/heldout_homes.jsonl and
# tests/data/custom_homes): kept out of generated names and descriptions.
HELDOUT_TOOL_WORDS = frozenset(
    "boiler diesel greenhouse nursery zone climate_zone illuminate lamp_control garden shop"
    " energise tool boat vent ceiling shading shade ventilate yard signal jot notify carer"
    " diary farm lodge barn ballroom studio outlet".split()
)
_DESC_THINGS = {
    "lights": ["lights", "lamps", "bulbs", "lighting", "room lights", "light fittings"],
    "thermostat": [
        "heating",
        "heater",
        "radiators",
        "heat pump",
        "furnace",
        "thermostat",
        "air conditioning",
        "stove",
    ],
    "blinds": ["blinds", "shutters", "curtains", "roller blinds", "awnings", "window blinds"],
    "fan": ["fan", "extractor", "air purifier", "desk fan", "cooling fan"],
    "switch": ["smart plugs", "sockets", "plugs", "power strip", "switched sockets"],
    "relay": ["relays", "relay board", "contactors", "circuits", "switched outputs"],
    "led": ["LEDs", "indicator lights", "status lights", "beacons", "panel lamps"],
    "log": ["log", "logbook", "journal", "notes"],
}
_DESC_FORMS = {
    "lights": [
        "Turn the {thing} in a room on or off, set brightness (percent) or colour.",
        "Switch {place} {thing} on or off, dim them, or change colour.",
        "{Thing} by room.",
        "Controls the {thing}{in_place}: on, off, brightness and colour.",
        "Light up or darken a room, or set how bright its {thing} are.",
    ],
    "thermostat": [
        "Set the {thing}'s target temperature in degrees Celsius, or its mode.",
        "Target temperature and mode of the {thing}{in_place}.",
        "Controls the {thing}{in_place}: temperature (Celsius) or heat/cool/auto/off.",
        "Make it warmer or cooler{in_place} with the {thing}.",
        "The {thing}.",
    ],
    "blinds": [
        "Move the {thing} of a room; 0 is closed and 100 is open.",
        "Open, close or set the {thing}{in_place} to a position in percent.",
        "{Thing} by room (position 0 to 100).",
        "Raise or lower a room's {thing}.",
    ],
    "fan": [
        "Turn the {thing}{in_place} on or off, or change its speed.",
        "The {thing}: on, off and speed.",
        "Run or stop the {thing}{in_place}, or set how fast it goes.",
    ],
    "switch": [
        "Turn one of the {thing} on or off, or toggle it.",
        "{Thing}{in_place}: ON, OFF or TOGGLE the device on each.",
        "Power a device through the {thing}.",
        "Switches the power to appliances plugged into the {thing}.",
    ],
    "relay": [
        "Switch a device wired to the {thing} on or off.",
        "Power to the equipment on the {thing}{in_place}.",
        "{Thing}: turn a connected device on or off.",
    ],
    "led": [
        "Set one of the {thing} on, off or blinking.",
        "{Thing}{in_place}: on, off or blink.",
        "Control the {thing} on the panel.",
    ],
    "log": [
        "Write a message to the {thing}.",
        "Add an entry to the {thing}{in_place}.",
        "Keep a short note in the {thing}.",
    ],
}
_DESC_PLACES = (
    "the house | the flat | the cottage | the cabin | the office | the caravan | the loft"
    " | the workroom | the home | the apartment | the basement | the holiday home".split(" | ")
)


def _allowed(word: str) -> bool:
    return not any(p in HELDOUT_TOOL_WORDS for p in word.split("_")) and word not in (
        HELDOUT_TOOL_WORDS
    )


def made_tool_name(kind: str, rng: random.Random, qualifiers: Sequence[str] | None = None) -> str:
    """A tool name for `kind` from a form, a noun of the kind and sometimes a qualifier."""
    nouns = [n for n in _KIND_NOUNS[_GROUP[kind]].split() if _allowed(n)]
    quals = qualifiers or _TOOL_QUALIFIERS
    for _ in range(20):
        name = rng.choice(_TOOL_FORMS).format(n=rng.choice(nouns), q=rng.choice(quals))
        if _allowed(name):
            return name
    return _KINDS[kind][0]


def made_description(kind: str, rng: random.Random, tool: str | None = None) -> str:
    """A description for `kind`; it names the tool's own noun when the tool name has one."""
    group = _GROUP[kind]
    things = list(_DESC_THINGS[group])
    if tool:
        spoken = tool.replace("_", " ")
        for n in _KIND_NOUNS[group].split():
            if n.replace("_", " ") in spoken and rng.random() < 0.7:
                things = [n.replace("_", " ")]
                break
    thing = rng.choice(things)
    place = rng.choice(_DESC_PLACES)
    form = rng.choice(_DESC_FORMS[group])
    in_place = f" in {place}" if rng.random() < 0.5 else ""
    text = form.format(
        thing=thing, Thing=thing[:1].upper() + thing[1:], place=place, in_place=in_place
    )
    return text[:1].upper() + text[1:]


# The word each single-device kind's templates use for the device: a renamed tool adds its own
# noun as an alternative, so requests use the word the config chose ("set the radiator to 20").
_TEMPLATE_NOUN = {
    "simulated_thermostat": "thermostat",
    "simulated_blinds": "blinds",
    "simulated_fan": "fan",
}


# Groups whose names one request can mean interchangeably: a device is switched by a plug or
# a relay alike.
_SERVE_GROUP = {"switch": "power", "relay": "power"}


def tool_noun(kind: str, tool: str) -> str | None:
    """The kind's noun inside a tool name (`set_heat_pump` -> `heat pump`), if it has one."""
    group = _GROUP.get(kind)
    if group is None:
        return None
    best = None
    for n in _KIND_NOUNS[group].split():
        if n in tool.split("_") or f"_{n}" in f"_{tool}_":
            if best is None or len(n) > len(best):
                best = n
    return best.replace("_", " ") if best else None


def random_home(
    rng: random.Random, pools: Mapping[str, Sequence[str]], lookalike: float = 0.0
) -> dict[str, JsonDict]:
    """A `[devices]` table: 1 to 8 devices, distinct tool names, at most one lights kind.
    (Mixed groups add up to 3 random non-home tools to such a home: up to 11 tools.)

    With probability `lookalike` the home also gets a second tool of a kind it already has
    (`add_lookalike`): two light tools, two covers, plugs and relays side by side.
    """
    n = rng.choice([1, 1, 2, 2, 3, 3, 4, 4, 5, 6, 7, 8])
    kinds = list(HOME_KINDS)
    devices: dict[str, JsonDict] = {}
    tools: set[str] = set()
    lights = False
    for _ in range(40):
        if len(devices) >= n:
            break
        kind = rng.choice(kinds)
        is_light = kind.endswith("_lights")
        if is_light and lights:
            continue
        table = device_table(kind, rng, pools)
        tool = table.get("tool", _KINDS[kind][0])
        if tool in tools:
            continue
        tools.add(tool)
        lights |= is_light
        devices[f"d{len(devices)}"] = table
    if lookalike and rng.random() < lookalike:
        add_lookalike(devices, rng, pools)
    return devices


# Kinds that can stand twice in one home, told apart by the names they serve: a second lights
# tool for the porch or the hall, blinds and shutters, plugs beside a relay board. (Two
# thermostats or fans differ only by their tool names, which the templates do not separate.)
_TWIN_KINDS = {
    "simulated_lights": ("simulated_lights", "zigbee2mqtt_lights"),
    "zigbee2mqtt_lights": ("simulated_lights", "zigbee2mqtt_lights"),
    "simulated_blinds": ("simulated_blinds",),
    "tasmota": ("tasmota", "gpio_relays"),
    "gpio_relays": ("tasmota", "gpio_relays"),
    "gpio_leds": ("gpio_leds",),
}
# The table key holding a kind's names, and whether it maps names to addresses.
_NAME_KEYS = {
    "simulated_lights": "rooms",
    "simulated_blinds": "rooms",
    "zigbee2mqtt_lights": "devices",
    "tasmota": "switches",
    "gpio_relays": "relays",
    "gpio_leds": "leds",
}


def table_names(table: Mapping[str, Any]) -> list[str]:
    """The names (rooms, devices, LEDs) a device table serves."""
    key = _NAME_KEYS.get(str(table.get("kind")))
    return list(table.get(key) or []) if key else []


def add_lookalike(
    devices: dict[str, JsonDict], rng: random.Random, pools: Mapping[str, Sequence[str]]
) -> None:
    """Add a tool like one the home has, under its own tool name and with names no tool of
    that group serves, so only the names in the prompt tell the two apart."""
    present = [t["kind"] for t in devices.values() if t["kind"] in _TWIN_KINDS]
    if not present:
        kind = rng.choice(sorted(_TWIN_KINDS))
        devices[f"d{len(devices)}"] = device_table(kind, rng, pools)
        present = [kind]
    kind = rng.choice(_TWIN_KINDS[rng.choice(present)])
    group = _GROUP[kind]
    taken = {
        _norm(n) for t in devices.values() if _GROUP[t["kind"]] == group for n in table_names(t)
    }
    names = {str(t.get("tool", _KINDS[t["kind"]][0])) for t in devices.values()}
    for _ in range(10):
        table = device_table(kind, rng, pools)
        key = _NAME_KEYS[kind]
        own = table[key]
        if isinstance(own, dict):
            table[key] = {k: v for k, v in own.items() if _norm(k) not in taken}
        else:
            table[key] = [n for n in own if _norm(n) not in taken]
        if not table[key]:
            continue
        tool = made_tool_name(kind, rng, pools.get("tool_qualifiers"))
        if tool in names:
            continue
        table["tool"] = tool
        devices[f"d{len(devices)}"] = table
        return


def home_tools(devices: Mapping[str, Mapping[str, Any]]) -> list[JsonDict]:
    """The tool schemas the daemon would build for a `[devices]` table."""
    from devices import build_handlers

    return [dict(h.schema) for h in build_handlers(devices)]


def home_sentences(
    devices: Mapping[str, Mapping[str, Any]],
    tools: Sequence[Mapping[str, Any]],
    rng: random.Random,
    pools: Mapping[str, Sequence[str]],
    more_phrasings: bool = False,
    home_wide: bool = False,
    transitions: bool = False,
) -> str:
    """A sentences file for one home: each kind's templates under its tool's name (with
    `more_phrasings`, the short forms too), the home's names as slot values, and names from
    the pools that this home lacks as `_unknown`.

    With `home_wide`, a name is `_unknown` to a tool only if no tool of the home that could
    serve it has it: no device of any plug or relay, no room of another lights tool ("turn on
    the kettle" is the relay's when the plugs lack it, never a refusal). With `transitions`,
    lights that take a transition are also asked to fade over some seconds.
    """
    parts: list[str] = []
    served: dict[str, set[str]] = {}
    if home_wide:
        for table in devices.values():
            kind = str(table.get("kind"))
            if kind in _GROUP:
                served.setdefault(_SERVE_GROUP.get(_GROUP[kind], _GROUP[kind]), set()).update(
                    _norm(n) for n in table_names(table)
                )
    offtopic = [_BASE_OFFTOPIC]
    for table, tool in zip(devices.values(), tools, strict=True):
        name = tool["name"]
        if table.get("kind") not in _KINDS:
            continue  # no phrasings for this kind: the generator builds requests from the schema
        _, _, _, templates, off = _KINDS[table["kind"]]
        if more_phrasings:
            templates += _MORE_PHRASINGS.get(table["kind"], "")
            if table["kind"] == "log":
                templates += own_log_phrasings(str(tool.get("description") or ""))
        props = tool["parameters"]["properties"]
        if transitions and "transition" in props:
            templates += _TRANSITION_TEMPLATES
        noun = tool_noun(table["kind"], name)
        key = _TEMPLATE_NOUN.get(table["kind"])
        if key and noun and noun != key:
            # "(blinds | shades)" style groups already alternate; a bare word gains one
            templates = re.sub(rf"\b{key}\b", f"({key} | {noun})", templates)
            templates = templates.replace(f"(({key} | {noun})", f"({key} | {noun}")
        parts.append(f"[{name}]\n{templates}")
        offtopic.append(off)
        if "message" in props and "enum" not in props["message"]:
            # terse fragments too ("out of coffee beans"): a pool of "the ..." sentences taught
            # that a note starts at "the" ("pin a note: out of oat milk" kept "a note")
            notes = rng.sample(_split(_NOTES), 30)
            parts.append(f"[slot {name}.message]\n" + "\n".join(f"{n} = {n}" for n in notes))
        for param, schema in props.items():
            if "enum" not in schema or param in ("mode", "action"):
                continue
            values = list(schema["enum"])
            pool_key = _NAME_PARAMS.get(param) or ("colors" if param == "color" else None)
            lines = [f"{v} = {v}" for v in values]
            if pool_key:
                have = {_norm(v) for v in values}
                if param != "color":
                    group = _GROUP.get(str(table.get("kind")), "")
                    have |= served.get(_SERVE_GROUP.get(group, group), set())
                foreign = [x for x in pools[pool_key] if _norm(x) not in have]
                lines.append("_unknown = " + " | ".join(rng.sample(foreign, min(30, len(foreign)))))
            elif param == "speed":
                have = set(values)
                words = {s for ss in pools["speed_sets"] for s in ss.split(" | ")}
                foreign = sorted(words - have)
                if foreign:
                    lines.append("_unknown = " + " | ".join(foreign))
            parts.append(f"[slot {name}.{param}]\n" + "\n".join(lines))
    parts.append("[offtopic]\n" + "\n".join(offtopic))
    return "\n".join(parts) + "\n"


# ----------------------------------------------------------------------------------------------
# tool sets that are not homes

_VERBS = [
    "set",
    "start",
    "stop",
    "schedule",
    "send",
    "book",
    "add",
    "create",
    "open",
    "close",
    "play",
    "record",
    "feed",
    "water",
    "dispense",
    "adjust",
    "arm",
    "lock",
    "run",
    "order",
]
_NOUNS = [
    "volume",
    "alarm",
    "timer",
    "sprinkler",
    "feeder",
    "pump",
    "camera",
    "oven",
    "kettle",
    "speaker",
    "playlist",
    "reminder",
    "robot",
    "vacuum",
    "printer",
    "gate",
    "valve",
    "dryer",
    "washer",
    "sauna",
    "pool",
    "grill",
    "smoker",
    "drone",
    "coffee",
    "tank",
    "incubator",
    "irrigation",
    "recording",
    "shutter",
    "doorbell",
    "message",
    "table",
]
_ENUM_PARAMS = {
    "zone": ["front lawn", "back lawn", "beds", "greenhouse", "hedge", "orchard", "patio pots"],
    "program": ["eco", "quick", "intensive", "delicate", "cotton", "wool", "rinse", "spin"],
    "channel": ["news", "sports", "music", "kids", "movies", "weather", "jazz radio"],
    "pet": ["cat", "dog", "fish", "rabbit", "parrot", "hamster", "tortoise"],
    "recipient": ["mum", "dad", "office", "neighbour", "sister", "brother", "landlord"],
    "size": ["small", "medium", "large", "extra large"],
    "drink": ["espresso", "latte", "cappuccino", "americano", "tea", "hot chocolate"],
    "camera": ["front door", "driveway", "back yard", "baby room", "garage", "side gate"],
    "source": ["radio", "bluetooth", "tv", "aux", "spotify", "cd"],
    "direction": ["up", "down", "left", "right", "forward", "back"],
    "priority": ["low", "normal", "high", "urgent"],
    "area": ["upstairs", "downstairs", "perimeter", "garage", "whole house"],
}
_NUM_PARAMS = {
    "level": (0, 10, "integer", ""),
    "minutes": (1, 120, "integer", "minutes"),
    "volume": (0, 100, "integer", "percent"),
    "amount": (1, 20, "integer", ""),
    "duration": (1, 60, "integer", "minutes"),
    "cups": (1, 12, "integer", "cups"),
    "grams": (5, 500, "integer", "grams"),
    "speed": (1, 5, "integer", ""),
    "people": (1, 12, "integer", "people"),
    "ph": (6, 8, "number", ""),
    "depth": (1, 50, "integer", "centimetres"),
    "angle": (0, 90, "integer", "degrees"),
}
_BOOL_PARAMS = ["enabled", "repeat", "loud", "urgent", "night_mode", "shuffle", "eco"]


def random_tool(
    rng: random.Random,
    taken: set[str],
    exclude: set[str] = frozenset(),  # type: ignore[assignment]
) -> tuple[JsonDict, str]:
    """A random schema (1 to 4 parameters) and a sentences section for it; enum values in
    `exclude` (held-out names) are never used."""
    for _ in range(50):
        verb, noun = rng.choice(_VERBS), rng.choice(_NOUNS)
        name = f"{verb}_{noun}"
        if name not in taken:
            break
    taken.add(name)
    props: JsonDict = {}
    required: list[str] = []
    kinds = ["enum", "num", "bool"]
    for _ in range(rng.randint(1, 4)):
        k = rng.choice(kinds)
        if k == "enum":
            p = rng.choice(list(_ENUM_PARAMS))
            if p in props:
                continue
            vals = [v for v in _ENUM_PARAMS[p] if _norm(v) not in exclude]
            if not vals:
                continue
            props[p] = {"type": "string", "enum": rng.sample(vals, rng.randint(1, len(vals)))}
        elif k == "num":
            p = rng.choice(list(_NUM_PARAMS))
            if p in props:
                continue
            lo, hi, t, unit = _NUM_PARAMS[p]
            hi = rng.choice([hi, max(lo + 1, hi // 2), hi * 2]) if t == "integer" else hi
            props[p] = {"type": t, "minimum": lo, "maximum": hi}
            if unit and rng.random() < 0.5:
                props[p]["description"] = f"in {unit}"
        else:
            p = rng.choice(_BOOL_PARAMS)
            if p in props:
                continue
            props[p] = {"type": "boolean"}
        if rng.random() < 0.5:
            required.append(p)
    noun_words = noun.replace("_", " ")
    desc = rng.choice([f"{verb.capitalize()} the {noun_words}.", f"Controls the {noun_words}.", ""])
    tool: JsonDict = {"name": name, "parameters": {"type": "object", "properties": props}}
    if desc:
        tool = {"name": name, "description": desc, "parameters": tool["parameters"]}
    if required:
        tool["parameters"]["required"] = required
    lines = []
    for _ in range(6):
        chosen = [p for p in props if p in required or rng.random() < 0.5] or list(props)[:1]
        phrases = []
        for p in chosen:
            sch, pw = props[p], p.replace("_", " ")
            if sch.get("type") == "boolean":
                phrases.append(
                    f"[with] {pw} (on | enabled | yes){{{p}:true}}"
                    if rng.random() < 0.5
                    else f"[with] {pw} (off | disabled | no){{{p}:false}}"
                )
            elif "enum" in sch:
                phrases.append(rng.choice([f"[for the] {{{p}}}", f"{pw} {{{p}}}"]))
            else:
                unit = _NUM_PARAMS.get(p, (0, 0, "", ""))[3]
                phrases.append(rng.choice([f"{pw} [to] {{{p}}}", f"[for] {{{p}}} {unit or pw}"]))
        lines.append(f"({verb} | please {verb}) [the] {noun_words} " + " ".join(phrases))
    return tool, f"[{name}]\n" + "\n".join(lines) + "\n"


# ----------------------------------------------------------------------------------------------
# the data set


# The demo home's rooms and their synonyms in its sentences file.
_DEMO_ROOM_WORDS = frozenset(
    {
        "kitchen",
        "living room",
        "lounge",
        "front room",
        "living-room",
        "bedroom",
        "bathroom",
        "bath room",
    }
)


def _fresh_unknowns(text: str, rng: random.Random, rooms: Sequence[str]) -> str:
    """The demo sentences with each `_unknown` list's foreign rooms redrawn from `rooms` (the
    demo home's own rooms, unsupported for one tool, stay)."""

    def redraw(m: re.Match[str]) -> str:
        names = [n.strip() for n in m.group(1).split("|")]
        keep = [n for n in names if n in _DEMO_ROOM_WORDS]
        pool = [x for x in rooms if _norm(x) not in _DEMO_ROOM_WORDS]
        return "_unknown = " + " | ".join(keep + rng.sample(pool, len(names) - len(keep)))

    return re.sub(r"^_unknown = (.*)$", redraw, text, flags=re.M)


def synthesize_homes(
    homes: int,
    per_home: int,
    seed: int = 0,
    demo_share: float = 0.1,
    schema_share: float = 0.15,
    data_version: int = 1,
    names: str = "train",
) -> tuple[list[JsonDict], JsonDict]:
    """`homes` groups of up to `per_home` examples; returns (rows, record of what was drawn).

    `data_version` 2 (1 reproduces the bundled model's data): the demo home's unsupported
    rooms are drawn from the training pool for each of its groups (its sentences file names
    held-out rooms like "study" and "porch" as unsupported, and at a tenth of all groups that
    taught them as refusals everywhere), and half the other homes name their rooms, devices and
    LEDs (and the unsupported ones they are asked about) half with made-up words.
    `data_version` 3: three homes in four invent names (`with_invented_v3`: 30 to 90% of
    them, colours, fan speeds and tool names too), and every home kind has more phrasings
    (`_MORE_PHRASINGS`). `data_version` 4: version 2's homes with version 3's phrasings (to
    tell which half of version 3 cost accuracy). `data_version` 5: version 2 where two homes
    in five also hold a look-alike tool (`add_lookalike`: a second lights, cover, plug or
    relay tool with its own names), a name another tool of the home serves is never
    `_unknown` (in version 2, a plug's made-up refusal could name the relay board's pump),
    and lights that take a transition are asked to fade ("... over 5 seconds"), which no
    earlier version taught. `data_version` 6: version 2 with more multi-action requests, two
    in five of them lists of three or four (`LIST_MIX`, `LIST_ACTIONS`). `data_version` 7:
    version 6 where three lists in ten say one request over two or three names, and about one
    command in eight carries a remark that asks for nothing.

    `names` "unseen" draws from the evaluation side of the split minus the hand-written
    held-out homes' names (pools too small for a home keep their training side): a development
    set of names the model never saw that is not the held-out test.
    """
    # the share of homes that invent names, and the mean share of names they invent
    if data_version not in (1, 2, 3, 4, 5, 6, 7):
        raise ValueError(f"data_version must be 1 to 7, not {data_version}")
    invented_homes = {1: 0.0, 2: 0.5, 3: 0.75, 4: 0.5, 5: 0.5, 6: 0.5, 7: 0.5}[data_version]
    invented = {1: 0.0, 2: 0.5, 3: 0.6, 4: 0.5, 5: 0.5, 6: 0.5, 7: 0.5}[data_version]
    lookalike = 0.4 if data_version == 5 else 0.0
    settings = _GENERATOR_SETTINGS.get(data_version, {"mix": HOME_MIX})
    rng = random.Random(seed)
    held = heldout_names()
    split = name_split(held)
    pools = {k: v["train"] for k, v in split.items()}
    if names == "unseen":
        for k, v in split.items():
            fresh = [n for n in v["eval"] if _norm(n) not in held]
            if len(fresh) >= 6:
                pools[k] = fresh
    elif names != "train":
        raise ValueError(f"names must be 'train' or 'unseen', not {names!r}")
    rows: list[JsonDict] = []
    kinds_seen: set[str] = set()
    max_enum = max_tools = 0
    demo_sentences = DEMO_SENTENCES.read_text(encoding="utf-8")
    for h in range(homes):
        r = rng.random()
        hseed = rng.randrange(2**31)
        hrng = random.Random(hseed)
        if r < demo_share:
            from agent.offline.train.synth import tools_from_config

            tools = tools_from_config(DEMO_CONFIG)
            text = demo_sentences
            if data_version >= 2:
                text = _fresh_unknowns(text, hrng, pools["rooms"])
        else:
            tools, sections = [], []
            if r >= demo_share + schema_share or hrng.random() < 0.3:
                hpools: Mapping[str, Sequence[str]] = pools
                if data_version == 3 and hrng.random() < 0.75:
                    hpools = with_invented_v3(hrng, pools, held)
                elif data_version in (2, 4, 5, 6, 7) and hrng.random() < 0.5:
                    hpools = with_invented(hrng, pools, 0.5, held)
                devices = random_home(hrng, hpools, lookalike)
                tools = home_tools(devices)
                kinds_seen.update(t["kind"] for t in devices.values())
                sections.append(
                    home_sentences(
                        devices,
                        tools,
                        hrng,
                        hpools,
                        more_phrasings=data_version in (3, 4),
                        home_wide=data_version == 5,
                        transitions=data_version == 5,
                    )
                )
            if r < demo_share + schema_share:
                taken = {t["name"] for t in tools}
                for _ in range(hrng.randint(1, 3) if tools else hrng.randint(1, 5)):
                    t, sec = random_tool(hrng, taken, held)
                    tools.append(t)
                    sections.append(sec)
                sections.append("[offtopic]\n" + _BASE_OFFTOPIC)
            hrng.shuffle(tools)
            text = "\n".join(sections)
        max_tools = max(max_tools, len(tools))
        for t in tools:
            for s in t["parameters"].get("properties", {}).values():
                max_enum = max(max_enum, len(s.get("enum", [])))
        sf = parse_sentences(text, f"<home {h}>")
        gen = Generator(tools, sf, seed=hseed, **settings)
        rows.extend(gen.generate(per_home))
    record = {
        "kinds": sorted(kinds_seen),
        "max_tools": max_tools,
        "max_enum_values": max_enum,
        "param_types": ["enum", "integer", "number", "boolean"],
        "general_schemas": schema_share > 0,
        "homes": homes,
        "per_home": per_home,
        "data_version": data_version,
        "invented_names": invented,
        "invented_homes": invented_homes,
        "lookalike_homes": lookalike,
        "list_actions": (
            {str(k): v for k, v in settings["actions"].items()} if "actions" in settings else None
        ),
        "name_split": {
            k: {"train": len(v["train"]), "eval": len(v["eval"]), "eval_names": v["eval"]}
            for k, v in split.items()
        },
        "heldout_names_file": str(HELDOUT_NAMES.name) if HELDOUT_NAMES.exists() else None,
    }
    return rows, record


__all__ = [
    "HOME_KINDS",
    "HOME_MIX",
    "LIST_ACTIONS",
    "LIST_MIX",
    "device_table",
    "home_sentences",
    "home_tools",
    "name_split",
    "random_home",
    "random_tool",
    "synthesize_homes",
]
