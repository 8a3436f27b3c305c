package lang

// The words that name a person without their name: by their relation to
// someone ("Peter's older brother", "his neighbour"), or by a pronoun that
// stands for someone named before. Package reflect tells by them whose
// attribute a curated statement states: "Thomas, Peter's older brother,
// lives in Graz" is Thomas's address, not Peter's. English, lower case.

// RelationNouns name a person by their relation to another: family,
// partners, friends, neighbours, the people one works or lives with.
var RelationNouns = []string{
	"brother", "brothers", "sister", "sisters", "mother", "father", "mum", "mom", "dad", "parents", "parent",
	"son", "sons", "daughter", "daughters", "wife", "husband", "partner", "spouse", "fiancé", "fiancée", "fiance", "fiancee",
	"girlfriend", "boyfriend", "cousin", "cousins", "uncle", "aunt", "auntie", "nephew", "niece", "grandmother", "grandfather",
	"grandma", "grandpa", "granny", "grandson", "granddaughter", "grandchildren", "kids", "children", "child",
	"stepson", "stepdaughter", "stepmother", "stepfather", "in-law", "in-laws", "sibling", "siblings", "twin",
	"friend", "friends", "neighbour", "neighbor", "neighbours", "neighbors", "colleague", "colleagues", "flatmate", "roommate", "housemate",
	"boss", "landlord", "landlady", "tenant", "godmother", "godfather", "godson", "goddaughter",
}

// RelationModifiers may stand before or around a relation noun in the
// phrase that names the person ("his older brother", "Peter's late
// father", "the eldest"): determiners, possessives and words of age or
// closeness.
var RelationModifiers = []string{
	"his", "her", "their", "my", "our", "its", "the", "a", "an",
	"older", "younger", "elder", "eldest", "youngest", "little", "big", "step", "half", "best", "old", "late",
}

// PersonPronouns open a sentence about the person the sentence before
// names ("Santosh kaka did his last round. He has moved back to Satara"):
// personal pronouns and possessive determiners.
var PersonPronouns = []string{"he", "she", "they", "his", "her", "their"}
