"""Write the mixed development set: `python bench/dev_mixed.py --out FILE.jsonl`.

Fifteen homes nobody had seen, written to the held-out writers' brief (tests/data/heldout_brief.md)
as it stands, with its counts per home (11 one-action, 4 multi-action, 11 refusals) and no
special focus: the closest a development set comes to the held-out sets' own shape. Five helper
writers wrote it, each with a persona of their own (a harbour cottage, a lifeboat crew room and a
skipper's bungalow; a signalman's cottage, a bed and breakfast and a community hall; a
clockmaker's workshop, a hospice day room and a beekeeper's cottage; a vet practice, a student
houseshare and a lock-keeper's cottage; an Orkney croft, a barber's shop and a violin maker's
workshop), with the checker refusing every name of training, of the earlier dev sets and of
held-out sets 1 to 7. They were told it is a development set: rules are chosen on it, as on every
dev set here; nothing is ever trained on it.

It was measured before anyone read it (bench/general/dev_mixed_first_read.json), so that report
is an unbiased estimate of the decoding of that day on homes nobody has tuned for.

Batch 2 (folders `b2_*`, 390 more cases, fifteen more homes) was written the same way by five more
writers (a liveaboard narrowboat, a farm shop and a seaside bungalow; a village bakery, a
climbing gym and a family house; a dental surgery, a shepherd's hut and a musician's flat; an
allotment society, a care home lounge and a motor workshop; a tea room, a branch library and a
falconer's cottage), staged outside this folder while they wrote so that the checker refused
the names of every set before them, and measured before anyone read it
(bench/general/dev_mixed_batch2_first_read.json: commands 158/165, two actions 55/60, refusals
159/165 at min_confidence 0.5 on the decoding of 5730791).

Batch 3 (folders `b3_*`, 468 cases, eighteen homes) was written the same way by six more writers
(a ski chalet, a fishmonger's and a seaside bungalow; a microbrewery, a yoga studio and a
bedsit; a vineyard tasting room, a mountain bothy and a dog groomer's; a radio shack, an orchard
barn and a nursery baby room; a bicycle shop, a plant nursery and a sheltered flat; a sailing
club, a theatre's dressing rooms and a farmhouse), and measured before anyone read it
(bench/general/dev_mixed_batch3_first_read.json: commands 264/270, two actions 69/72, refusals
192/198 at min_confidence 0.5 on the decoding of d878f75).

Batch 4 (folders `b4_*`, 312 cases, twelve homes) was written the same way by four more writers
(a dog walker's terraced house, a bee farm's honey shed and a retired sea captain's cottage; a
small-town barber's, a violin maker's workshop and a flat above a launderette; a bookbinder's
studio, a static caravan and a garage home gym; a tailor's shop, an amateur astronomer's
observatory hut and a new-build semi), and measured before anyone read it
(bench/general/dev_mixed_batch4_first_read.json: one-action commands 126/132, two actions 45/48,
refusals 130/132 at min_confidence 0.5 on the decoding of 8c3d11a).

Batch 5 (folders `b5_*`, 390 cases, fifteen homes) was written the same way by five more writers
given the personas of held-out set 7's writers (those personas are named in the commit that
sealed set 7; nothing else of it), with about a third of the multi-action cases in threes as
they were told: a family house with teenagers and a grandparent, an osteopath's practice and a
narrowboat; a village pub, a pottery studio and a retired couple's bungalow; a smallholding, a
student house and a holiday cottage; a community hall, a home-working couple's house and the
flat of a resident who runs the home by voice; a reptile keeper's house, a band's rehearsal
space and a tower-block flat. Measured before anyone read it
(bench/general/dev_mixed_batch5_first_read.json: one-action commands 162/165, two actions 56/60,
refusals 164/165 at min_confidence 0.5 on the decoding of a0e20be), where set 7 then served 152
of 165 one-action commands: the personas alone do not make set 7 harder.

Batch 6 (folders `b6_*`, 312 cases, twelve homes) was written the same way by four more writers
asked to write the requests as a voice satellite's speech-to-text would type them: mostly
lowercase, little punctuation, words in the order people speak them, names shortened where it
stays clear, the odd filler or false start (a vet clinic, a climbing gym and a nursing-home flat;
a scout hut, a tattoo parlour and a mountain bothy; a print shop, a florist's and a dance school;
a dentist's practice, a student house and a fishmonger's). Three homes were renamed before
anyone read a case (`wet_fish_counter`, `student_terrace`, `letterpress_shop`) so that no stem
repeats one of an earlier set. Measured before anyone read it
(bench/general/dev_mixed_batch6_first_read.json: one-action commands 129/132, two actions 38/48,
refusals 131/132 at min_confidence 0.5 on the decoding of b0a833b): the spoken style costs the
lists most.

Batch 7 (folders `b7_*`, 312 cases, twelve homes) was written the same way by four more writers
asked to write as people who speak English as a second language talk to the assistant: clearly
understandable, not textbook English (an article dropped, their own word order, a phrase
translated literally, an unusual preposition, the odd word of their own language): a Polish
family's semi, a Portuguese-run café and a Ukrainian grandmother's flat; an Indian joint
family's house, a Turkish barber's and a Brazilian student's studio flat; a German engineer's
workshop, an Italian restaurant kitchen and a Nigerian pastor's manse; a Chinese takeaway with a
flat above, a Filipino nurse's house and a French baker's shop. Measured before anyone read it
(bench/general/dev_mixed_batch7_first_read.json: one-action commands 107/132, two actions 36/48,
refusals 130/132 at min_confidence 0.5 on the decoding of a267d91): the hardest batch yet.

Batch 8 (folders `b8_*`, 312 cases, twelve homes) was written to batch 7's brief by four more
writers (a Syrian family's flat, a Moroccan tea shop and an Egyptian dentist's surgery; a
Japanese ramen bar, a Korean couple's apartment and a Vietnamese nail salon; a Spanish tapas
bar, a Romanian builder's house and a Greek grandmother's cottage; a Ghanaian tailor's shop, a
Somali family's house and a Russian piano teacher's flat), to test the rules chosen on batch 7
on second-language requests nobody had read. Measured before anyone read it on the decoding of
395c331 (bench/general/dev_mixed_batch8_first_read.json: one-action commands 121/132, two
actions 45/48, refusals 127/132 at min_confidence 0.5) and, for the comparison, on the decoding
of a267d91 from before those rules (dev_mixed_batch8_at_a267d91.json: 113/132, 45/48, 127/132).

Batch 9 (folders `b9_*`, 312 cases, twelve homes) was written to the same brief by four more
writers (a Mexican family's house, a Colombian hairdresser's and a Peruvian cook's food truck
garage; a Thai massage studio, an Indonesian family's flat and a Pakistani corner shop; a Dutch
cyclist's flat, a Swedish potter's cabin and a Hungarian violin repairer's workshop; an Iranian
rug dealer's showroom, a Kenyan student hostel room and a Czech brewery's taproom), after the
rules read off batches 7 and 8. Measured before anyone read it on the decoding of 2fe2e9a
(bench/general/dev_mixed_batch9_first_read.json: one-action commands 117/132, two actions 35/48,
refusals 132/132) and on that of a267d91 (dev_mixed_batch9_at_a267d91.json: 112/132, 33/48,
132/132).

Batch 10 (folders `b10_*`, 312 cases, twelve homes) was written by four more writers, two to
the same brief (a Singaporean hawker's flat, a Malaysian durian seller's shophouse and a Sri
Lankan tea planter's bungalow; a French wine bar, an Italian grandmother's villa and a Swiss
watchmaker's workshop) and two to it spoken, as a voice satellite's speech-to-text types a
second-language speaker (a Lebanese bakery, an Armenian jeweller's shop and a Georgian
winemaker's cellar house; an Argentinian grill restaurant, a Haitian church hall and a Cape
Verdean fisherman's house). Measured before anyone read it on the decoding of 965a13f
(bench/general/dev_mixed_batch10_first_read.json: one-action commands 122/132, two actions
40/48, refusals 131/132).

Batch 11 (folders `b11_*`, 312 cases, twelve homes) was written the same way, two typed (a
Finnish sauna cottage, an Icelandic guesthouse and a Danish bicycle repair shop; a Bulgarian
rose oil workshop, a Serbian family kitchen and a Lithuanian amber jeweller's) and two spoken (a
Taiwanese bubble tea shop, a Hong Kong family flat and a Cantonese herbalist's shop; an
Ethiopian coffee house, a Tanzanian safari lodge office and a Senegalese fabric shop), to test
the rules read off batch 10 on requests nobody had read. Measured before anyone read it on the
decoding of 372f66c, with those rules (bench/general/dev_mixed_batch11_first_read.json:
one-action commands 117/132, two actions 41/48, refusals 130/132), and of 965a13f, before them
(dev_mixed_batch11_at_965a13f.json: 117/132, 41/48, 129/132).

Batch 12 (folders `b12_*`, 312 cases, twelve homes) was written the same way, two typed (a
Nepali trekking lodge, a Bangladeshi sweet shop and a Burmese tea shop; a Ukrainian sunflower
farm kitchen, a Kazakh guesthouse and a Mongolian cashmere shop) and two spoken (a Brazilian
capoeira gym, a Portuguese fado bar and an Angolan family's flat; a Filipino karaoke bar, a
Vietnamese pho shop and a Thai flower market stall's back room), to test the rules read off
batches 10 and 11. Measured before anyone read it on the decoding of those rules (the working
tree after 502666e, committed next: bench/general/dev_mixed_batch12_first_read.json: one-action
commands 122/132, two actions 43/48, refusals 130/132) and of 965a13f
(dev_mixed_batch12_at_965a13f.json: 121/132, 43/48, 130/132).

Batch 13 (folders `b13_*`, 312 cases, twelve homes) was written by four more writers, native
English speakers this time, whose requests carry reasons, remarks and politeness around the
order: two spoken to a voice satellite (an Australian sheep station homestead, a New Zealand
surf school's hut and a Queensland mango farm's packing shed; a wheelchair user's adapted
bungalow, a deaf couple's flat whose lights are signals and a night-shift nurse's terraced
house) and two typed (an Irish bed and breakfast, a Scottish island croft and a Welsh chapel
house, chatty and indirect; a Texas ranch house, a New York musicians' loft and a Florida
retiree's condo, typed fast on phones). Measured before anyone read it on the decoding of
8ccef72 (bench/general/dev_mixed_batch13_first_read.json: one-action commands 110/132, two
actions 38/48, refusals 129/132), the hardest batch yet.

Batch 14 (folders `b14_*`, 312 cases, twelve homes) was written to batch 13's brief by four
more writers, to test the rules read off batch 13 on requests nobody had read: two spoken (a
Canadian lake cottage, a Newfoundland saltbox house and a Vancouver basement suite; a single
dad's flat with twins, a home daycare and a shift worker's room) and two typed (a Yorkshire
allotment shed, a Geordie terrace and a Cornish surf shop, chatty; a Georgia fellowship hall,
a Louisiana crawfish kitchen and an Arizona RV pad, typed fast on phones). Measured before
anyone read it on the decoding of 8ccef72 (bench/general/dev_mixed_batch14_first_read.json:
one-action commands 101/132, two actions 31/48, refusals 129/132) and with the first
batch-13 rules (dev_mixed_batch14_with_batch13_rules.json: 101/132, 34/48, 129/132).

Each writer's folder under bench/dev_mixed/ holds `homes/<home>.toml` and `cases.txt`, in the
held-out sets' source format (tests/data/make_heldout_homes.py reads both).
"""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import dev_handwritten  # noqa: E402  (sibling scripts, not a package)
import dev_lists  # noqa: E402

FOLDER = HERE / "dev_mixed"
# the cases as `needled eval` reads them (vendor JSONL, tools on each case)
rows = partial(dev_lists.rows, FOLDER)

if __name__ == "__main__":
    raise SystemExit(dev_handwritten.main(rows, __doc__))
