"""The English words the scanner's readers look for: data, one family per key.

Nothing here is code: each family is a tuple of lower-case words or phrases, in the
order a reader tries them (where one is a prefix of another, the order is kept as
written). A space in a phrase is any run of whitespace; a trailing period is
optional ("vs." reads "vs" too). :mod:`vouched._scan._lex._vocabulary` compiles them
once into the sets and patterns the readers use (:mod:`vouched._scan._read._mentions` reads
its pronouns, references, conjunctions and name words here too);
``tests/scan/test_scan_english.py`` validates them (lower case, no duplicates, no
pattern syntax, every family used).
"""

from __future__ import annotations

__all__ = ["ENGLISH"]

ENGLISH: dict[str, tuple[str, ...]] = {
    # Words between a cue and its number ("humidity is at 63%").
    "linking": (
        "of", "to", "at", "is", "was", "are", "were", "be", "been", "being", "around",
        "about", "roughly", "nearly", "almost", "approximately", "near", "some", "just",
        "only", "over", "under", "by", "from", "reached", "reaching", "reaches", "hit",
        "hits", "stands", "stood", "sits", "sat", "currently", "now", "a", "an", "the",
        "with", "s", "its", "his", "their", "her", "likely", "expected", "forecast",
        "set", "scheduled", "for", "will", "should", "still", "right", "measured",
        "measuring", "reading", "reads", "showing", "shows", "sitting", "standing",
        "registering", "registered", "holding", "holds", "held", "steady", "as", "high",
        "low", "up", "down", "than", "more", "less", "exactly", "precisely", "already",
        "also", "even", "well", "very", "this", "today", "tonight", "morning", "afternoon",
        "evening", "in", "on", "has", "had", "have", "got", "gets", "went", "go",
        "going", "coming", "came", "comes", "and", "or", "per", "costs", "cost", "priced",
    ),
    # Words that may follow a number without making it about something else.
    "at_words": ("at", "the", "on", "for", "in", "its", "their"),
    "filler_after": (
        "and", "or", "but", "with", "in", "at", "on", "for", "this", "that", "the", "today",
        "tonight", "now", "currently", "right", "so", "while", "as", "of", "to", "by",
        "from", "than", "then", "which", "when", "per", "a", "an", "is", "was", "are",
        "were", "against", "versus", "vs", "compared", "respectively", "each",
        "apiece", "overall", "outside", "here", "there", "yesterday", "tomorrow",
        "according", "though", "although", "whereas", "since", "until", "after", "before",
        "during", "over", "under", "around", "about", "up", "down", "higher", "lower",
        "lately", "earlier", "later", "too", "also", "only", "exactly", "sharp", "flat",
        "even", "just", "both", "all", "it", "he", "she", "they", "we", "you",
    ),
    # "held the Bulls to 98 points": the number is the other side's.
    "held_verbs": (
        "held", "holding", "holds", "hold", "limited", "limiting", "limits", "limit", "kept",
        "keeping", "keeps", "forced", "forcing", "forces", "force",
    ),
    "held_to": ("to", "into", "under"),
    "connectives": ("in", "at", "for", "of", "from", "on", "to"),
    # Words between a value and the place or subject it is stated for ("21 °C in Munich").
    "value_places": ("in", "at", "for"),
    # Words between a name and the value it states right after it ("Graz 3.2 °C", "Graz is
    # at 3.2 °C", "Murray scored 31"): that number is the name's own.
    # Words after a number whose noun is left out, the subject's own count of the noun
    # just named ("forced 14 turnovers while committing 12 of their own").
    "own_after": ("of their own", "of his own", "of her own", "of its own"),
    "own_value_links": (
        "is at", "was at", "is", "was", "are", "were", "at", "stands at", "sits at",
        "scored", "had", "has", "added", "posted", "recorded", "reached",
    ),
    # Words after a number that say when, not what ("1.0842 today", "7 °C right now").
    "times_after": (
        "as of", "at the close", "at close", "earlier today", "today", "tonight", "tomorrow",
        "yesterday", "right now", "now", "currently", "at the moment", "at present",
        "at the present", "at the minute", "so far", "this morning", "this afternoon",
        "this evening", "this week", "this month", "this year",
    ),
    "pair_words": ("for", "of"),
    "value_joins": ("and", "&", "versus", "vs.", "against"),
    "subject_joins": ("and", "&"),
    "comparing_verbs": ("is", "are", "was", "feels", "looks"),
    # "a steal", "a pair of steals": what an article counts.
    "articles": ("a", "an", "a pair of", "a couple of", "a single"),
    # Vague amounts of time ("a few minutes late"): the amounts they allow are
    # VAGUE_AMOUNTS in the vocabulary module (issue 37).
    "vague_amounts": ("a few", "a couple of", "a couple", "several", "a handful of"),
    "vague_units": ("minutes", "minute", "mins", "min", "hours", "hour"),
    "from_now_before": ("in", "within", "for"),
    # A name right after a subject and one of these is where it goes, no subject of its
    # own ("ICE 1537 to Munich is delayed by 21 minutes") (issue 37).
    "destination_words": ("to", "towards"),  # "leaves in a few minutes": no delay
    # Phrases that state one value: a lexicon's value for one of them is the value of
    # each ("on time": 0 minutes late, so "on schedule" and "punctually" too).
    "on_time": (
        "on time", "on schedule", "punctual", "punctually", "right on time",
        "running on time", "running on schedule", "on-time",
    ),
    # Words that open the group a rank phrase names ("led the way", "led all scorers",
    # "paced his team"): the words before are the claim of rank, those after the group.
    "group_determiners": ("the", "all", "his", "her", "their", "its"),
    # A difference a number states, after it ("a 12-point win", "3 degrees warmer").
    "difference_after": (
        "win", "victory", "lead", "margin", "loss", "defeat", "deficit", "edge", "triumph",
        "blowout", "rout", "advantage", "warmer", "colder", "cooler", "hotter", "higher",
        "lower", "more", "fewer", "less", "cheaper", "dearer", "pricier", "later", "earlier",
        "faster", "slower", "ahead", "behind", "longer", "shorter", "bigger", "smaller",
        "difference", "quicker", "busier", "wetter", "drier", "windier", "calmer", "stronger",
        "weaker", "greater", "gap", "above", "below", "over", "under", "up on", "down on",
        "range", "spread", "swing",
    ),
    "since_words": ("from", "since", "versus", "vs.", "on", "against"),
    "earlier_words": ("previous", "prior", "last", "day before", "earlier"),
    "reference_articles": ("the", "its"),
    # ... and before it ("won by 12", "led by 5").
    "difference_before": (
        "won", "win", "wins", "lost", "lose", "loses", "led", "leads", "lead", "trailed",
        "trails", "beat", "beats", "defeated", "outscored", "edged", "margin", "difference",
        "gap", "differ", "differs", "differed", "gain", "gained", "rise", "rose", "drop",
        "dropped", "fall", "fell", "change", "changed",
        # "warmer than Munich by 5 degrees": a comparative, its object, then the gap
        "warmer", "colder", "cooler", "hotter", "higher", "lower", "cheaper", "dearer",
        "pricier", "later", "earlier", "faster", "slower", "longer", "shorter", "bigger",
        "smaller", "quicker", "busier", "wetter", "drier", "windier", "calmer", "stronger",
        "weaker", "greater",
    ),
    "by_words": ("by", "of"),
    # A journey's length: "a journey of 1 hour 43 minutes", "travel time is about 95
    # minutes", "a 103-minute trip" (issue 37).
    "journey_words": (
        "journey", "journey time", "travel time", "trip", "ride", "running time",
    ),
    "journey_links": (
        "of", "is", "takes", "lasts", "about", "around", "roughly", "approximately", "just",
        "only", "some", "nearly", "exactly", "a", "little", "over", "under",
    ),
    "only_words": ("just", "only"),
    # A bound stated with a comparison ("over 50 percent"). Not "up to": "gusts of
    # up to 100 km/h", "up to 90% chance of rain" state the maximum, a value to check
    # (overstating it is wrong), not a bound any lower value satisfies.
    "comparisons": (
        "over", "above", "more than", "greater than", "higher than", "at least",
        "in excess of", "exceeding", "beyond", "under", "below", "less than", "fewer than",
        "lower than", "at most", "no more than",
    ),
    # Words right before a number that state a period's extreme: "gusts of up to 12 m/s",
    # "temperatures climbing to 9 °C", "lows dipping to -3 °C" speak of the maximum
    # (minimum), never of one slot's value.
    "highest_before": (
        "up to", "as high as", "as much as", "a maximum of", "maximum of", "a peak of",
        "peaking at", "peak at", "topping out at", "top out at", "climbing to", "climb to",
        "climbs to", "rising to", "rise to", "rises to", "reaching a maximum of",
        "reaching a high of",
    ),
    "lowest_before": (
        "as low as", "a minimum of", "minimum of", "dropping to", "drop to", "drops to",
        "dipping to", "dip to", "dips to", "falling to", "fall to", "falls to",
        "bottoming out at", "down to",
    ),
    # Words around a number that state a sum over its period: "a total of 7 mm over the
    # weekend", "7 mm of rain in total", "7 mm altogether" (the amounts of its days added).
    "total_before": (
        "a total of", "total of", "totalling", "totaling", "totals of", "adding up to",
        "accumulating", "accumulations of", "accumulation of",
    ),
    "total_after": ("in total", "altogether", "combined", "all told"),
    "below": ("under", "below", "less than", "fewer than", "lower than"),
    "at_most": ("at most", "no more than"),
    "at_least": ("at least",),
    "compare_words": (
        "over", "above", "than", "least", "excess", "exceeding", "beyond", "under", "below",
        "most", "up",
    ),
    # Sign words a reader applies ("1.15% lower", "3 degrees below zero", "gave up $2").
    "fall_after": (
        "lower", "down", "below zero", "below freezing", "below 0", "in the red", "under zero",
    ),
    "fall_before": (
        "gave up", "gives up", "giving up", "shed", "sheds", "slipped", "slips", "declined",
        "declines", "dropped", "drops", "lost", "loses", "fell", "falls", "down", "decreased",
        "eased", "eases", "retreated", "minus",
    ),
    "fall_by": ("by",),
    # Words of a move ("fell 1.36% to $418.32", "down from $424.10"): a number after the
    # move and "to" or "from" is the level reached or left, not the size of the move.
    "move_words": (
        "rose", "rises", "risen", "rising", "climbed", "climbs", "gained", "gains", "jumped",
        "jumps", "surged", "rallied", "advanced", "added", "up", "higher", "fell", "falls",
        "fallen", "falling", "dropped", "drops", "slipped", "slips", "slid", "declined",
        "declines", "lost", "loses", "shed", "sank", "tumbled", "eased", "retreated", "down",
        "lower",
    ),
    "level_links": ("to", "from"),
    # Nouns of what is known about a value: a value phrase before one ("no delay
    # information", "no delay data yet") says what is not known, not the value.
    "information_nouns": (
        "information", "info", "data", "details", "detail", "update", "updates", "news",
        "estimate", "estimates", "report", "reports", "status", "feed",
    ),
    "fall_hedges": ("just", "some", "about", "nearly"),
    "fall_chain": ("down", "fell", "lost", "dropped", "declined", "slipped", "shed", "gave up"),
    "cents": ("cent", "cents", "pence"),
    "zero_words": ("zero", "freezing"),
    "degree_words": ("degree", "degrees"),
    "margin_nouns": (
        "win", "victory", "lead", "margin", "loss", "defeat", "deficit", "edge", "triumph",
        "blowout", "rout", "advantage", "difference", "gap",
    ),
    "references": ("its", "the", "their", "his", "her", "that", "this"),
    "sum_words": (
        "together", "combined", "in total", "a total of", "totaling", "totalling",
        "altogether", "in all", "sum",
    ),
    # A count stated for every subject of a list ("A and B each scored two goals").
    "each_words": ("each", "apiece"),
    # Words that hand a count to a list of subjects ("three goals from A, B and C").
    "count_sources": ("from", "by", "through", "courtesy of", "via"),
    "weekdays": ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"),
    # A statement in words after one of these in its clause is denied or missed.
    "negations": (
        "not", "never", "no", "nor", "neither", "without", "hardly", "barely", "cannot",
        "no longer", "fail to", "fails to", "failed to", "unable to", "short of", "shy of",
        "miss", "misses", "missed",
    ),
    # Words right before a relation phrase that hedge it ("one of the coldest").
    "hedges": (
        "nearly", "near", "almost", "close to", "one of", "among", "tied for", "flirted with",
        "threatened", "chasing", "on track for", "a bid for", "one of the",
    ),
    "hedge_articles": ("a", "an", "the", "his", "her", "their", "its"),
    "state_links": (
        "is", "are", "was", "were", "be", "been", "being", "remains", "remained",
        "stays", "stayed", "currently", "now", "still", "held", "runs", "run",
        "running", "takes", "took", "place", "meets", "meet", "listed", "marked",
        "reported", "reports", "shown", "showing", "as", "set", "scheduled", "will",
        "also", "today", "fully", "entirely", "of", "the", "'", "s", ",", "(", ":",
        "from", "for", "with", "operating", "operates", "taught", "offered",
        # "is available in white", "comes in black" (issue 37)
        "available", "comes", "come", "in",
    ),
    "role_nouns": (
        "guard", "forward", "center", "centre", "point", "shooting", "small", "power",
        "big", "man", "star", "rookie", "veteran", "coach", "head", "reserve", "starter",
        "teammate", "player", "captain", "instructor", "tutor", "course", "class",
        "workshop", "service", "team", "driver", "conductor",
    ),
    # Words that move a sentence to a later occasion ("will host", "their next game").
    # Words that put a statement on another occasion than the present one ("it was 4
    # yesterday", "tomorrow the UV index climbs to 4"): two values of one quantity on
    # different occasions do not contradict each other.
    "other_occasion": (
        "yesterday", "tomorrow", "tonight", "overnight", "ago", "earlier", "later",
        "previous", "prior", "last night", "last week", "last month", "last year",
        "next week", "next month", "next year", "the day before", "the week before",
        "will", "used to",
    ),
    "later_occasion": (
        "will", "shall", "next", "upcoming", "again", "await", "awaits", "on deck",
        "going to", "look to", "looks to", "set to", "slated", "head back", "head home",
        "heads back", "heads home", "travel to", "travels to", "return home", "returns home",
        "head to", "heads to", "remain home", "remains home", "stay home", "stays home",
    ),
    # Words that name the opponent of a later occasion right before it ("will host the
    # Suns", "travel to Phoenix to take on the Suns", "a road matchup against X").
    "later_opponent": (
        "against", "face", "faces", "facing", "face off with", "faces off with", "take on",
        "takes on", "host", "hosts", "hosting", "host to", "play", "plays", "visit",
        "visits", "welcome", "welcomes", "await", "awaits", "meet", "meets", "travel to",
        "travels to", "head to", "heads to", "tangle with", "battle", "vs.", "versus",
    ),
    # Verbs and nouns whose manner a value word may describe ("book the class online").
    "manner_of": (
        "book", "books", "booked", "booking", "register", "registers", "registered",
        "registering", "registration", "sign up", "signs up", "signed up", "signing up",
        "enrol", "enroll", "enrolls", "enrols", "enrolled", "enrolling", "pay", "pays",
        "paying", "payment", "paid", "buy", "buys", "buying", "bought", "order", "orders",
        "ordered", "ordering", "reserve", "reserves", "reserved", "reserving", "reservation",
        "apply", "applied", "ticket", "tickets", "stream", "streams", "streamed", "streaming",
        "watch", "watched",
    ),
    "ordinals": (
        "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
        "tenth",
    ),
    "ordinal_suffixes": ("st", "nd", "rd", "th"),  # "2nd", "10th"
    # A place in a season's table ("third place in the division", "the seventh seed"):
    # the ranks before the noun (besides the ordinals) and the nouns.
    "standing_ranks": ("last", "top", "bottom"),
    "standing_nouns": ("place", "seed"),
    # Pronouns a reader resolves to a subject named before them.
    "pronouns": (
        "he", "she", "him", "his", "her", "they", "them", "their", "it", "its", "who", "whose",
    ),
    # ... of them, those that are objects ("beat him"): dearer as a subject.
    "object_pronouns": (
        "him", "her", "them",
    ),
    # Definite references a reader resolves to the last subject named: "the city".
    "reference_nouns": (
        "city", "town", "capital", "team", "squad", "club", "side", "stock", "company",
        "share", "shares", "firm", "currency", "pair", "rate", "train", "service",
        "workshop", "course", "class", "session", "event", "store", "shop", "branch",
        "product", "item", "route", "line", "flight", "station", "location", "venue",
        "player", "guard", "forward", "center", "centre", "star", "veteran", "rookie",
    ),
    # Conjunctions that open a clause before a subject ("and Munich ...").
    "conjunctions": (
        "and", "but", "while", "whereas", "although", "though", "yet", "as", "whilst", "or",
    ),
    # Capitalised words that start sentences without naming anything.
    "not_names": (
        "a", "an", "the", "this", "that", "these", "those", "there", "here", "it", "its",
        "he", "she", "they", "we", "you", "i", "our", "your", "their", "his", "her",
        "today", "tonight", "tomorrow", "yesterday", "now", "currently", "right", "overall",
        "meanwhile", "also", "however", "in", "at", "on", "for", "with", "by", "from", "to",
        "of", "and", "but", "or", "as", "if", "so", "then", "after", "before", "during",
        "while", "when", "expect", "note", "please", "yes", "no", "not", "all", "both",
        "each", "every", "some", "most", "many", "few", "one", "two", "three", "current",
        "latest", "live", "according", "based", "data", "unfortunately", "sadly", "monday",
        "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "january",
        "february", "march", "april", "may", "june", "july", "august", "september",
        "october", "november", "december", "am", "pm", "utc", "gmt", "mr", "mrs", "ms",
        "dr", "st", "ok", "okay", "sure", "well", "still", "just", "only", "even", "again",
        "later", "earlier", "next", "last", "first", "second", "third", "final", "despite",
        "thanks", "what", "which", "where", "why", "how", "who", "whose", "is", "are",
        "was", "were", "will", "would", "could", "should", "can", "might", "do", "does",
        "did", "has", "have", "had",
    ),
    # Generational suffixes after a person's name ("Michael Porter Jr."): not its surname.
    "name_suffixes": ("jr.", "sr.", "ii", "iii", "iv"),
    # Words of a place's or a club's name, never a person's: a two-word subject with one
    # ("New York", "Mexico City", "Real Madrid") gets no short names (neither word alone).
    "place_name_words": (
        "new", "san", "santa", "los", "las", "saint", "st.", "fort", "port", "mount",
        "lake", "north", "south", "east", "west", "upper", "lower", "great", "little",
        "old", "el", "la", "le", "den", "bad", "cape", "city", "town", "island", "islands",
        "beach", "springs", "falls", "heights", "park", "valley", "bay", "harbour",
        "harbor", "airport", "station", "centre", "center", "county", "state", "united",
        "real", "inter", "sporting",
        "athletic", "club", "fc", "sc", "hbf", "inc.", "ltd.", "ag", "se", "co.", "corp.",
    ),
    # Words after a sentence-initial capitalised word that make it a subject ("Hamburg is").
    "subject_verbs": (
        "is", "was", "are", "were", "has", "had", "have", "sees", "saw", "will", "reports",
        "reported", "shows", "showed", "stands", "stood", "sits", "sat", "feels", "looks",
        "remains", "hits", "hit", "reached", "reaches", "scored", "posted", "added",
        "finished", "recorded", "tallied", "costs", "cost", "trades", "traded", "closed",
        "opened", "rose", "fell", "gained", "lost", "leaves", "left", "departs", "arrives",
        "s", "\u2019s", "'s",
    ),
}  # fmt: skip
