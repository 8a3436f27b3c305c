package models

import (
	"context"
	"errors"
	"os"
	"slices"
	"testing"

	"memoria/embed"
)

// paraphrases are 20 pairs written for this test (not the ones in the research note):
// the second of each pair says the first in other, mostly different, words.
var paraphrases = [][2]string{
	{"My sister lives in Lisbon and works as a nurse.", "She's a nurse based in Lisbon, my sibling."},
	{"The kitchen tap has been dripping all week.", "Water keeps leaking from the faucet in the kitchen."},
	{"I always take the train to the office.", "My commute to work is by rail."},
	{"The laptop battery dies after an hour.", "My notebook computer only lasts sixty minutes unplugged."},
	{"We adopted a puppy last spring.", "A young dog joined our family a few months ago in spring."},
	{"He hates spicy food.", "He can't stand dishes with a lot of chili."},
	{"The quarterly report is due on Friday.", "We have to hand in the three-month summary by the end of the week."},
	{"Tests should run before every merge.", "Run the test suite prior to merging any branch."},
	{"Our wifi keeps dropping in the evening.", "The wireless internet connection fails at night."},
	{"She is training for a marathon in October.", "She's preparing to run 42 kilometres this autumn."},
	{"Please water the plants while I'm away.", "Could you take care of watering my flowers during my trip?"},
	{"The meeting was cancelled because the client was sick.", "The customer fell ill, so the call got called off."},
	{"I prefer tea to coffee in the morning.", "In the mornings I'd rather drink tea than coffee."},
	{"The car needs new tyres before winter.", "We must replace the wheels' rubber before the cold season."},
	{"Remember to lock the back door at night.", "Don't forget to secure the rear entrance before bed."},
	{"The password must be rotated every ninety days.", "Credentials have to be changed every three months."},
	{"My grandfather grew up on a farm in Ireland.", "Grandpa spent his childhood in rural Ireland raising animals."},
	{"The library closes early on Sundays.", "On Sunday the public book lending place shuts sooner."},
	{"The server logs are rotated daily and compressed.", "Every day the machine's log files get archived and gzipped."},
	{"I'm learning to play the piano.", "I am taking keyboard lessons to play music."},
}

// TestParaphrases is a sanity check of every installed model, not a benchmark: for
// most anchors the paraphrase should be the nearest of the 20 candidate sentences. It
// logs the cosines that thresholds on similarity depend on (recall's semantic floor,
// reflect's semantic match): the mean for paraphrases and for unrelated pairs, and the
// 95th percentile and maximum of the unrelated ones.
func TestParaphrases(t *testing.T) {
	ran := 0
	for _, model := range All {
		m, err := model.Load("")
		if errors.Is(err, ErrMissing) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		ran++
		t.Run(model.Name, func(t *testing.T) { paraphrases20(t, m) })
	}
	if ran == 0 {
		if os.Getenv("MEMORIA_REQUIRE_MODEL") != "" {
			t.Fatal("no embedding model installed")
		}
		t.Skip("no embedding model installed")
	}
}

func paraphrases20(t *testing.T, m embed.Embedder) {
	var a, b []string
	for _, p := range paraphrases {
		a = append(a, p[0])
		b = append(b, p[1])
	}
	va, err := m.Embed(context.Background(), a)
	if err != nil {
		t.Fatal(err)
	}
	vb, err := m.Embed(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	first := 0
	var sumPair float64
	var others []float64
	for i := range va {
		best, bestJ := -2.0, -1
		for j := range vb {
			c := float64(embed.Dot(va[i], vb[j]))
			if j == i {
				sumPair += c
			} else {
				others = append(others, c)
			}
			if c > best {
				best, bestJ = c, j
			}
		}
		if bestJ == i {
			first++
		} else {
			t.Logf("miss: %q → %q (%.3f) instead of %q (%.3f)", a[i], b[bestJ], best, b[i], embed.Dot(va[i], vb[i]))
		}
	}
	slices.Sort(others)
	var sumOther float64
	for _, c := range others {
		sumOther += c
	}
	n := float64(len(va))
	t.Logf("paraphrase ranked first for %d/%d anchors; mean cosine paraphrase %.3f, unrelated %.3f (p95 %.3f, max %.3f)",
		first, len(va), sumPair/n, sumOther/float64(len(others)), others[len(others)*95/100], others[len(others)-1])
	if first < 16 {
		t.Errorf("paraphrase ranked first for only %d/%d anchors, want ≥ 16", first, len(va))
	}
}
