package synth

import (
	"math/rand/v2"
	"strings"
)

// EntityKind says what an entity is.
type EntityKind string

// Entity kinds used by the generator.
const (
	Person  EntityKind = "person"
	Project EntityKind = "project"
	Place   EntityKind = "place"
)

// Entity is one member of the generated entity pool.
type Entity struct {
	Slug    string     // file-safe slug, e.g. "Anna-Berg", "The-Castle", "warelay"
	Kind    EntityKind // person, project or place
	Aliases []string   // alternative names, declared on the entity page
}

// Name is the display name: the slug with '-' as a space.
func (e Entity) Name() string { return strings.ReplaceAll(e.Slug, "-", " ") }

var firstNames = []string{
	"Peter", "Andy", "Anna", "Maria", "Jonas", "Lena", "Tom", "Sara", "Felix", "Mia",
	"David", "Laura", "Lukas", "Julia", "Max", "Nora", "Paul", "Emma", "Simon", "Clara",
	"Ben", "Hannah", "Leon", "Sophie", "Elias", "Marie", "Noah", "Lea", "Tim", "Ida",
	"Oscar", "Greta", "Jakob", "Alice", "Finn", "Ella", "Hugo", "Ruth", "Karl", "Vera",
	"Marco", "Giulia", "Pablo", "Lucia", "Omar", "Yuki", "Kenji", "Priya", "Ravi", "Amara",
	"Chen", "Mei", "Ivan", "Olga", "Sean", "Niamh", "Lars", "Ingrid", "Mateo", "Zoe",
	"Andrew", "Michael", "Katherine", "Robert", "Elizabeth", "William", "Nicholas", "Alexander",
}

var lastNames = []string{
	"Berg", "Schmidt", "Novak", "Rossi", "Garcia", "Tanaka", "Singh", "Okafor", "Larsen", "Dubois",
	"Meyer", "Fischer", "Weber", "Wagner", "Becker", "Hoffmann", "Koch", "Richter", "Klein", "Wolf",
	"Silva", "Costa", "Murphy", "Kelly", "Nguyen", "Kim", "Park", "Ivanova", "Horvat", "Jensen",
}

var nicknames = map[string]string{
	"Peter": "Pete", "Andrew": "Drew", "Michael": "Mike", "Katherine": "Kate", "Robert": "Bob",
	"Elizabeth": "Liz", "William": "Will", "Nicholas": "Nick", "Alexander": "Alex", "David": "Dave",
	"Thomas": "Tom", "Jakob": "Jake", "Benjamin": "Ben", "Sophie": "Sophie", "Hannah": "Hanna",
}

var places = []string{
	"Marrakech", "Vienna", "Lisbon", "Berlin", "Kyoto", "Oslo", "Porto", "Zurich", "Prague", "Madrid",
	"Dublin", "Seoul", "Toronto", "Boston", "Austin", "Tallinn", "Krakow", "Napoli", "Lyon", "Ghent",
	"The-Castle", "Cafe-Central", "Home-Office", "Lake-House", "Old-Town", "North-Beach", "Main-Station",
	"Blue-Bottle", "The-Lab", "Riverside-Park", "Grand-Hotel", "Cowork-Loft", "Hill-Cabin", "City-Library",
	"San-Francisco", "New-York", "Buenos-Aires", "Cape-Town", "Hong-Kong", "Tel-Aviv",
}

var projectPrefixes = []string{
	"ware", "claw", "moss", "kite", "lumen", "pico", "nimbus", "quill", "orbit", "ember",
	"tide", "flux", "echo", "atlas", "delta", "nova", "sable", "fern", "cobalt", "drift",
}

var projectSuffixes = []string{
	"lay", "dis", "box", "base", "kit", "hub", "line", "forge", "mind", "gate", "port", "sync",
}

var projectWords = []string{
	"night-owl", "blue-harbor", "paper-trail", "red-kite", "slow-cook", "deep-field", "open-loop",
	"tiny-bird", "long-memory", "quiet-hours", "star-chart", "iron-bridge",
}

// buildEntities returns a deterministic pool of about 200 entities: people,
// projects and places, ordered by how often the logs will mention them.
func buildEntities(seed uint64) []Entity {
	r := rand.New(rand.NewPCG(seed, 0xe7717e5))
	var out []Entity
	seen := map[string]bool{}
	add := func(e Entity) {
		k := strings.ToLower(e.Slug)
		if seen[k] {
			return
		}
		seen[k] = true
		out = append(out, e)
	}
	// People: first names alone, then first-last pairs.
	for _, f := range firstNames {
		e := Entity{Slug: f, Kind: Person}
		if n, ok := nicknames[f]; ok && n != f {
			e.Aliases = append(e.Aliases, n)
		}
		add(e)
	}
	for len(out) < 100 {
		f := firstNames[r.IntN(len(firstNames))]
		l := lastNames[r.IntN(len(lastNames))]
		add(Entity{Slug: f + "-" + l, Kind: Person, Aliases: []string{f[:1] + ". " + l}})
	}
	// Projects: coined lower-case names plus a few hyphenated ones.
	add(Entity{Slug: "warelay", Kind: Project, Aliases: []string{"WA relay"}})
	for _, w := range projectWords {
		add(Entity{Slug: w, Kind: Project, Aliases: []string{strings.ReplaceAll(w, "-", "")}})
	}
	for len(out) < 160 {
		s := projectPrefixes[r.IntN(len(projectPrefixes))] + projectSuffixes[r.IntN(len(projectSuffixes))]
		e := Entity{Slug: s, Kind: Project}
		if r.IntN(2) == 0 {
			e.Aliases = []string{strings.ToUpper(s[:1]) + s[1:]}
		}
		add(e)
	}
	for _, p := range places {
		e := Entity{Slug: p, Kind: Place}
		if i := strings.LastIndexByte(p, '-'); i > 0 {
			e.Aliases = []string{p[i+1:]}
		}
		add(e)
	}
	// Mention order: a seeded shuffle, so the Zipf head differs per seed.
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	// Keep "Peter" and "warelay" prominent, as in the design examples.
	for _, s := range []string{"warelay", "Peter"} {
		for i := range out {
			if out[i].Slug == s {
				e := out[i]
				copy(out[1:i+1], out[:i])
				out[0] = e
			}
		}
	}
	return out
}
