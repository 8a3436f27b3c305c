package lang

// StopWords are the English words that name no topic: function words,
// question words, pronouns, the verbs of asking ("tell", "know",
// "remember"), and the fragments that apostrophes leave behind ("what's"
// → "what", "s"; "didn't" → "didn", "t"). Package query leaves them out
// of a question's search terms (Query.Terms), and reflect out of the
// terms it compares statements by, with StatementStopWords. Negations
// ("not", "no", "never") are kept: they carry meaning. They are the
// English function words (functionWords) but for those and a few common
// adverbs, quantifiers and time words, with the fragments besides.
var StopWords = []string{
	"a", "an", "the", "and", "or", "but", "nor", "of", "to", "in", "on", "at", "for", "with", "by", "from", "about", "as", "into", "onto",
	"over", "under", "than", "then", "so", "if", "because", "while", "per", "via", "up", "out", "off",
	"is", "are", "was", "were", "be", "been", "being", "am", "do", "does", "did", "doing", "done", "have", "has", "had", "having",
	"i", "me", "my", "mine", "myself", "we", "us", "our", "ours", "you", "your", "yours", "he", "him", "his", "she", "her", "hers",
	"it", "its", "they", "them", "their", "theirs", "this", "that", "these", "those", "there", "here",
	"what", "which", "who", "whom", "whose", "when", "where", "why", "how",
	"can", "could", "would", "should", "will", "shall", "may", "might", "must",
	"tell", "told", "say", "said", "know", "knew", "remember", "recall", "think", "mention", "mentioned",
	"please", "any", "anything", "some", "something", "everything", "all",
	"s", "t", "d", "ll", "re", "ve", "m", "don", "doesn", "didn", "isn", "aren", "wasn", "weren", "haven", "hasn", "hadn",
	"won", "wouldn", "couldn", "shouldn",
}

// GenericWords say that something happened without saying what: English
// event verbs and the leftovers of time phrases a question's parser
// reads only in part ("the first week of October" leaves "first" and
// "week"). A question whose terms are all generic names no topic
// (query.Query.Browse), and no such word stands for a name.
var GenericWords = []string{
	"happen", "happened", "happens", "happening", "go", "goes", "going", "went", "gone", "get", "got", "getting",
	"done", "doing", "up", "new", "news", "stuff", "thing", "things", "occur", "occurred", "occurring",
	"during", "first", "second", "third", "fourth", "last", "half", "early", "late", "mid", "week", "weeks",
	"weekend", "day", "days", "month", "months", "time",
}
