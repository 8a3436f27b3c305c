package lang

// StopWords are the English words package reflect leaves out when it
// compares two statements by their words (the terms of an opinion, a fact,
// a line of core memory): articles, pronouns, prepositions, conjunctions,
// auxiliaries, and the "s" and "t" an apostrophe leaves. Most are English
// function words (functionWords), which tell a text's language; unlike
// them, the stop words keep the negators ("not", "no", "nor"), the
// polarity words ("more", "few", "like") and the words that say a time or
// a change ("now", "new", "still", "today"), which are what a view says,
// and the verbs of a question ("remember", "tell"); and they leave out
// "down", "during", "once", "since", "until" and "says" besides.
var StopWords = []string{
	"a", "an", "the", "and", "or", "of", "to", "in", "on", "at", "for", "with", "by", "from", "into", "onto", "over",
	"as", "is", "are", "was", "were", "be", "been", "being", "it", "its", "this", "that", "these", "those",
	"he", "she", "they", "we", "i", "you", "him", "her", "them",
	"his", "their", "our", "my", "your", "me", "us", "so", "than", "then", "there", "here",
	"which", "who", "whom", "whose", "what", "when", "where", "why", "how",
	"do", "does", "did", "has", "have", "had", "will", "would", "can", "could", "should", "may", "might", "must", "shall",
	"also", "just", "very", "too",
	"about", "after", "before", "since", "until", "up", "down", "out", "off", "again", "once",
	"all", "any", "each", "both", "some", "such", "own", "same",
	"only", "if", "because", "while", "during", "per", "via", "s", "t", "one", "two", "said", "says",
}
