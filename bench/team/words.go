//go:build unix

package main

import (
	"math/rand/v2"
	"strings"
)

// questions are what the clients ask: the kind of thing an agent asks of
// a memory, in the synthetic workspaces' vocabulary (bench/synth: its
// frequent words, people, places, projects, commands and section names),
// some with a time phrase, which a fixed "now" keeps deterministic.
var questions = []string{
	"what did Peter say about the build",
	"when did I fix the failing test",
	"meeting with Anna about the release",
	"what do I know about warelay",
	"trip to Marrakech",
	"debugging the connection error on the server",
	"what was decided about the cache",
	"who prefers concise replies",
	"notes on the index directory",
	"kubectl get pods in prod",
	"docker compose up failed",
	"benchmarked the parser memory",
	"what happened in Vienna last week",
	"travel plans for Lisbon",
	"git rebase conflict",
	"opinions about the compiler",
	"what did we discuss about the security policy",
	"the release version of the library",
	"errands and health",
	"reviewed the patch with Maria",
	"where is the configuration file",
	"thread stack buffer",
	"terraform plan for the cloud region",
	"Kyoto",
	"what did Jonas work on",
	"ideas for the network service",
	"moved the token to the header",
	"summary of the retro",
	"python pytest errors",
	"the hash of the commit",
}

// words are frequent words of synth's vocabulary, for the lines the
// writers add.
var words = strings.Fields(`the file test code type error value commit command build version data
check path output package key date import bug size time project server cache index memory token
release module pointer directory stack buffer service length order system mode process
interface table start changes current request variable handle input names entry next map section`)

// phrase is n random words.
func phrase(r *rand.Rand, n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = words[r.IntN(len(words))]
	}
	return strings.Join(w, " ")
}

// token is a word that no generated text contains, unique to (kind, i, n):
// letters only, so that the text search parser keeps it whole, and ending
// in "q", which no English suffix rule of the stemmer takes off.
func token(kind string, i, n int) string {
	return "zq" + kind + letters(i) + "x" + letters(n) + "q"
}

// letters writes n in base 26 with the letters a to z.
func letters(n int) string {
	var b []byte
	for {
		b = append(b, byte('a'+n%26))
		n /= 26
		if n == 0 {
			break
		}
	}
	return string(b)
}
