package lang

// The English words of amounts: with which a question asks for one, and
// with which a line states one in words. Package query reads the first in
// a question (Query.Quantity), package recall the second in the lines it
// ranks for such a question.

// AsksAmount are the cues of a question that asks for an amount: a
// count, a sum, a duration, an age, a distance, a rate or a share. Each
// is a phrase of lower-case words separated by single spaces.
var AsksAmount = []string{
	"how many", "how much", "how long", "how old", "how far",
	"how often", "how tall", "how big", "how heavy",
	"what percentage", "what percent", "what proportion", "what fraction",
	"what share of",
}

// AmountWords are amounts written out ("four hours", "a dozen"). "One" is
// left out: it is far more often a pronoun ("this one", "one of them")
// than a count.
var AmountWords = []string{
	"two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen",
	"fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty", "thirty", "forty", "fifty", "sixty", "seventy",
	"eighty", "ninety", "hundred", "hundreds", "thousand", "thousands", "million", "millions", "billion", "dozen", "dozens", "twice",
}
