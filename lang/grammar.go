package lang

// The English words of the sentence structure package change reads: the
// conjunctions it cuts a sentence at, the forms of the verbs its grammar
// of change is built of ("is now", "went up", "took over", "started as
// the …"), the determiners before a role and the verbs that swap one
// thing for another. All are lower case; package change quotes them into
// its regular expressions.

// SentenceJoiners join, after a comma, two clauses of a sentence that
// change reads one by one to tell what is settled from a plan ("Imogen
// stepped down as secretary, but she'll still coach the novices").
var SentenceJoiners = []string{"but", "and", "so", "while"}

// FactJoiners join, after a comma, two clauses of a fact that change
// reads one by one to tell the values that hold from those that are over
// ("the flat is let, whereas the garage is empty").
var FactJoiners = []string{"but", "and", "while", "whereas", "so"}

// ReplacingWords open a clause that names what was replaced: "atta comes
// from Laxmi Chakki instead of Ganesh Traders".
var ReplacingWords = []string{"instead of", "rather than", "replacing"}

// SwapVerbs, before "X for Y" or "X with Y", say that X was given up for
// Y ("swapped the Panda for an Octavia", "replaced the kettle with a new
// one").
var SwapVerbs = []string{"swapped", "swapping", "swap", "traded", "exchanged", "replaced", "replacing"}

// YearPrepositions, before a year, say it as a time ("in 2022", "since
// 2019", "back in 2015"), not as a model's ("a 2004 J/22").
var YearPrepositions = []string{"in", "since", "until", "till", "from", "back in"}

// PersonalPossessives are the possessive determiners of persons: "our
// treasurer", "their new prices".
var PersonalPossessives = []string{"our", "their", "his", "her", "my"}

// Be are the present forms of "be" after any subject ("the rent is",
// "Zed's"); BeAfterPronoun those only a pronoun takes ("we're",
// "they’re"), with either apostrophe.
var (
	Be             = []string{"is", "are", "'s", "’s"}
	BeAfterPronoun = []string{"'re", "’re"}
)

// Have are the forms of "have" before a past participle ("has moved",
// "we've moved", "she's moved"), with either apostrophe.
var Have = []string{"has", "have", "had", "'ve", "’ve", "'s", "’s"}

// WeAre are the ways of saying "we are" ("we're with Vodafone now").
var WeAre = []string{"we're", "we’re", "we are"}

// GoForms are the forms of "go" that, before "up" or "down", say a value
// changed ("the rent went up", "prices are going down").
var GoForms = []string{"go", "goes", "going", "went", "gone"}

// TakeOver are the forms of "take over" that say someone took a role:
// "Patrice has taken over as section leader".
var TakeOver = []string{"took over", "takes over", "taken over", "taking over"}

// StartVerbs, before "as" (or "us as") and a role, say someone began in
// it: "Ellie started as the part-time apprentice", "joined us as our
// treasurer".
var StartVerbs = []string{"started", "starts", "starting", "joined", "joins"}

// StateVerbs, after "now", say how things are from then on ("now runs
// on Thursdays", "now costs £52", "they now live in Linz"). A bare "go"
// is none: "Now go." bids, "deploys now go through" tells a practice.
var StateVerbs = []string{"come", "comes", "goes", "run", "runs", "live", "lives", "work", "works", "cost", "costs",
	"start", "starts", "open", "opens", "close", "closes"}

// ChangeStarts, after "from" or "starting", say when a change begins
// ("from next month", "starting today"), as a weekday or a date does.
var ChangeStarts = []string{"next", "this", "today", "tomorrow"}

// ExtendedUntil, after "extended", give the new end of something
// ("extended to June", "extended till Friday").
var ExtendedUntil = []string{"to", "until", "till"}

// OrdinalSuffixes end a day's number ("3rd March", "21st").
var OrdinalSuffixes = []string{"st", "nd", "rd", "th"}

// ChangedObjects, after "changed", make it say a change of something
// ("changed it", "changed their number"), not a change of mind.
var ChangedObjects = []string{"it", "them", "the", "our", "his", "her", "their", "its", "my"}
