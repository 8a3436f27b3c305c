package models

import (
	"context"
	"slices"

	"memoria/embed"
)

// Paraphrases are 20 pairs of statements written for Memoria (not the ones in the
// research note): the second of each pair says the first in other, mostly different,
// words. They calibrate each model's cosine scale (Near) and are the sanity check of
// TestParaphrases.
var Paraphrases = [][2]string{
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

// Near is the cosine from which a text is near in meaning to a question (questions)
// or to another text under e's model: a quarter of the way from the 95th percentile
// of the cosines between unrelated statements (each anchor of Paraphrases, embedded
// as a question or as a passage, against the other pairs' paraphrases, embedded as
// passages) to the mean cosine of the paraphrases. Models put cosines on different scales
// (unrelated statements: about 0.19 with USE-lite, 0.08 with MiniLM, 0.79 with e5),
// so a threshold on similarity is this, per model, not one number. It is computed
// by the fit (recall/fit) and written with the weights; with USE-lite it is
// about 0.46.
func Near(ctx context.Context, e embed.Embedder, questions bool) (float64, error) {
	var anchors, others []string
	for _, p := range Paraphrases {
		anchors, others = append(anchors, p[0]), append(others, p[1])
	}
	embedAnchors := e.Embed
	if questions {
		embedAnchors = func(ctx context.Context, texts []string) ([][]float32, error) {
			return embed.EmbedQueries(ctx, e, texts)
		}
	}
	q, err := embedAnchors(ctx, anchors)
	if err != nil {
		return 0, err
	}
	v, err := e.Embed(ctx, others)
	if err != nil {
		return 0, err
	}
	var related float64
	var unrelated []float64
	for i := range Paraphrases {
		for j := range Paraphrases {
			c := float64(embed.Dot(q[i], v[j]))
			if i == j {
				related += c
			} else {
				unrelated = append(unrelated, c)
			}
		}
	}
	related /= float64(len(Paraphrases))
	slices.Sort(unrelated)
	p95 := unrelated[len(unrelated)*95/100]
	return p95 + (related-p95)/4, nil
}
