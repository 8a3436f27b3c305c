package lang

// The words of change: what says that a value changed, ended or stays as
// it was, and the words that tell a statement's attribute from its value.
// package change reads sentences with them (a later log line that
// outdates a curated statement, two versions of one fact). All are lower
// case; a word of a phrase ending in '*' matches any word that starts
// with it ("trasferit*": trasferito, trasferita).

// ChangeWords are the words and phrases that say a value changed from
// some moment on ("moved", "switched", "no longer", "jetzt", "теперь"),
// per language: English and the languages of the multilingual sets
// (German, Italian, Russian, Chinese, Japanese; French, Spanish,
// Portuguese and Swedish besides). A phrase matches whole words; in
// Chinese and Japanese, which have no spaces, anywhere. English's bare
// "now" and "new" are none (prose says "noticed only now" and "two new
// bookings" of things that did not change), nor a bare "moved",
// "stopped" or "replaced" ("moved the Mac mini onto the fibre line", "the
// head shaking has stopped", "replaced the filter"): package change reads
// them in a grammar ("is now", "the new treasurer is", "replaced Priya
// as").
var ChangeWords = map[string][]string{
	"en": {"moved to", "moved into", "moved from", "moved back", "moved house", "moved over", "moved onto", "moved across",
		"moves to", "relocated",
		"switched", "switching", "swapped", "swapping", "changed to", "upgraded", "replaced by", "replaced with", "replacing",
		"renewed", "rescheduled", "bumped", "instead", "no longer", "not any longer", "anymore", "any more", "no more",
		"from now on", "from here on", "these days", "nowadays", "used to", "stepped down", "finished at", "quit", "gave up",
		"give up", "got rid of", "ditched", "abandoned", "won't go back", "will not go back", "changed his mind",
		"changed her mind", "changed their mind", "changed my mind", "now prefers", "now wants", "now likes", "new one",
		"sold the", "sold his", "sold her", "sold my", "sold our"},
	"de": {"jetzt", "nun", "inzwischen", "mittlerweile", "neuerdings", "umgezogen", "zieht um", "zog um", "gewechselt", "wechselt zu",
		"nicht mehr", "ab sofort", "stattdessen", "ersetzt", "umgestiegen", "seit kurzem"},
	"it": {"ora", "adesso", "ormai", "trasferit*", "si è trasferit*", "cambiat*", "passat* a", "non più", "da oggi", "invece",
		"sostituit*", "non è più"},
	"fr": {"maintenant", "désormais", "dorénavant", "déménag*", "a changé", "est passé*", "remplacé*", "n'est plus", "à la place"},
	"es": {"ahora", "ya no", "se mudó", "mudad*", "cambió", "cambiad*", "pasó a", "en lugar de", "desde ahora", "reemplaz*", "sustituid*"},
	"pt": {"agora", "já não", "não mais", "mudou", "mudou-se", "trocou", "passou a", "em vez de", "substituíd*"},
	"sv": {"nu", "numera", "flyttat", "flyttade", "bytt", "bytte", "inte längre", "istället", "från och med nu"},
	"ru": {"теперь", "сейчас", "отныне", "переехал*", "перешёл", "перешел", "перешла", "перешли", "больше не", "сменил*", "поменял*",
		"вместо", "заменил*"},
	"zh": {"现在", "目前", "如今", "搬到", "搬去", "搬家", "改成", "改为", "换成", "换到", "不再", "已经不", "转到", "迁到", "迁移到", "替换"},
	"ja": {"今は", "現在", "引っ越", "移った", "移転", "変わった", "変更", "切り替え", "乗り換え", "代わりに"},
}

// NotSettled are the English words of a clause that does not say how
// things are now: a plan, a guess, an exception for a while ("might",
// "proposes", "for now", "this week only"), in any case. "may" is one
// too, in lower case only (package change: "4 May" is a day).
var NotSettled = []string{"might", "could", "would", "should", "if", "maybe", "perhaps", "probably", "possibly", "propos*",
	"plan*", "consider*", "thinking of", "thinking about", "hasn't decided", "not decided", "undecided", "in case", "for now",
	"temporar*", "this week only", "just for", "for the day", "for the morning", "for the weekend", "on leave", "be back",
	"asked whether", "asked if", "hope to", "hopes to", "hoping to",
	"want him to", "want her to", "want them to", "want us to", "want me to",
	"wants him to", "wants her to", "wants them to", "wants us to", "wants me to",
	"wanted him to", "wanted her to", "wanted them to", "wanted us to", "wanted me to",
	"wants to", "unless", "back then", "in the past"}

// ModalOpeners open an English sentence that is a plan or a guess as a
// whole ("If the council agrees, recycling moves to Thursdays").
var ModalOpeners = []string{"if", "maybe", "perhaps", "probably", "possibly", "unless"}

// Unchanged are the English words that say something stays as it was
// ("stays at ₹600", "still", "the same"), in lower case: "Haere Mai
// Stays" is a name.
var Unchanged = []string{"keep", "keeps", "kept", "still", "stay", "stays", "same", "as before", "as usual", "unchanged"}

// EndingWords say in English that someone or something stopped being
// what it was ("stepped down", "left", "no longer").
var EndingWords = []string{"stepped down", "steps down", "stood down", "resigned", "retired", "left", "quit", "no longer",
	"finished", "closed", "sold", "gave up", "given up", "stopped", "moved out"}

// EndMarkers say in English that what a clause names is over: it was
// replaced, dropped, archived, is no longer or not ("n't" ends a word:
// "isn't", "wasn't").
var EndMarkers = []string{"no longer", "not", "n't", "never", "stopped", "archived", "retired", "dropped", "gone",
	"replaced", "old", "former", "previous", "was", "were", "used to", "until", "ditched", "abandoned", "sold",
	"handed back", "given back", "gave back", "moved out", "left", "cancelled", "canceled", "closed", "ended", "quit",
	"finished at", "given up", "gave up", "stepped down", "no more"}

// Deadlines are the English words that make a day a deadline rather than
// an end: "valid until 31 March 2027" and "open till 4" say when
// something will end, not that it did.
var Deadlines = []string{"valid until", "valid till", "open until", "open till", "good until", "runs until", "runs till"}

// LeftFrom are the English words that make a later "from X" name what
// was left ("moved to Linz from Graz", "taken over from Yves").
var LeftFrom = []string{"moved", "moves", "move", "moving", "switched", "switching", "changed", "changing", "transferred",
	"went", "gone", "goes", "up", "down", "away", "over"}

// StartWords, after "from", say when something begins rather than what
// was left ("from today", "from next week"), as a number, a month or a
// weekday does.
var StartWords = []string{"today", "tomorrow", "tonight", "next", "now", "then", "this"}

// RelationWords relate an English statement to a time or a rate; they
// say nothing of what it is about ("Club treasurer since 2021").
var RelationWords = []string{"since", "until", "till", "after", "before", "during", "through", "per"}

// WorkVerbs say in English that someone works: followed by "at" or "for"
// they name the employer ("works at the bakery", "worked for Acme").
var WorkVerbs = []string{"work", "works", "worked", "working"}

// Titles come before a name ("Dr Anand", "Mrs Patel"): neither a value
// nor what a statement is about.
var Titles = []string{"dr", "mr", "mrs", "ms", "mx", "prof"}

// AddressTitles are the short words of a street's name ("Hāwea St") that
// do not tell one value from another.
var AddressTitles = []string{"st"}

// ValueKindNouns are the English head nouns of a label that name only the
// kind of its value ("Rehearsal day: Tuesday", "Membership fee: £40"), by
// kind.
var ValueKindNouns = map[string][]string{
	"weekday": {"day"},
	"time":    {"time"},
	"money":   {"fee", "price", "cost"},
}

// AttributeCues are the English words that name an attribute that changes
// in people's and systems' lives, by attribute: "lives" and "moved" the
// residence, "phone" and "mobile" the phone. A cue makes any two facts
// about one entity comparable: extend with care.
var AttributeCues = map[string][]string{
	"residence":  {"live", "lives", "lived", "living", "moved", "resides", "address", "apartment", "based"},
	"phone":      {"phone", "mobile", "cell", "telephone"},
	"email":      {"email", "e-mail"},
	"device":     {"laptop", "computer", "macbook", "notebook", "workstation", "desktop"},
	"hosting":    {"deployed", "hosted", "hosting", "host", "hosts", "production"},
	"release":    {"release", "version"},
	"employer":   {"employer", "job", "employed", "hired"},
	"meeting":    {"meeting", "appointment"},
	"sync":       {"sync", "standup"},
	"internet":   {"internet", "broadband", "fibre", "fiber", "bandwidth"},
	"price":      {"price", "cost", "costs", "rent", "salary"},
	"weight":     {"weight", "weighs"},
	"partner":    {"partner", "married", "wife", "husband", "girlfriend", "boyfriend"},
	"celebrates": {"celebrating", "celebrate", "celebrates", "party"},
	"editor":     {"editor", "ide"},
	"car":        {"car", "drives", "drove", "vehicle"},
	"os":         {"os", "distro", "distribution"},
	"manager":    {"manager", "boss"},
}

// MeasureUnits are the units of a measured amount ("1.5 mL", "20 kg",
// "15%"). Money is none: bills and prices of different things differ in
// every line about them.
var MeasureUnits = []string{"ml", "mg", "mcg", "kg", "g", "km", "mi", "miles", "m", "cm", "mm", "l", "litres", "liters",
	"lb", "lbs", "oz", "%", "percent"}
