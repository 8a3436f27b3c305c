package query_test

import (
	"fmt"
	"time"

	"memoria/query"
)

func ExampleParse() {
	names := query.NewNameTable(map[string][]string{"Peter": {"Pete"}, "The-Castle": nil})
	q, err := query.Parse(`what does Pete prefer at the castle since last week?`, query.Options{
		Now:   time.Date(2025, 11, 27, 9, 0, 0, 0, time.UTC),
		Names: names,
		Kinds: []string{"opinion"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(q.Intent, q.Entities, q.Terms)
	fmt.Println(q.Window.Start.Format(time.DateOnly), q.Window.End.Format(time.DateOnly), q.TimePhrases[0].Text, q.Kinds)
	// Output:
	// opinion [Peter The-Castle] [pete prefer castle]
	// 2025-11-17 2025-11-27 since last week [opinion]
}

func ExampleNameTable() {
	names := query.NewNameTable(map[string][]string{"Peter": {"Pete"}, "The-Castle": nil})
	for _, m := range names.MatchEntities("Pete and Andy went to The Castle.") {
		fmt.Println(m.Slug, m.Start, m.End)
	}
	// Output:
	// Peter 0 4
	// The-Castle 22 32
}
