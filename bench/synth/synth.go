package synth

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"
)

//go:embed words.txt
var wordsTxt string

// vocabulary is the frequency-ranked word list; rank 0 is the most common.
var vocabulary = strings.Fields(wordsTxt)

// Options controls Generate. The zero value is a 10-year workspace from
// 2016-01-01 with seed 0.
type Options struct {
	Days  int       // number of daily logs, one per day; 0 means 3650
	Seed  uint64    // random seed; same seed, same bytes
	Start time.Time // date of the first log; zero means 2016-01-01
}

// Stats describes what Generate wrote.
type Stats struct {
	Files          int   // all files written
	DailyLogs      int   // memory/YYYY-MM-DD.md files
	LongLogs       int   // daily logs of several hundred lines
	RetainSections int   // daily logs with a ## Retain section
	RetainBullets  int   // typed bullets in Retain sections
	CodeBlocks     int   // fenced code blocks in daily logs
	Entities       int   // size of the entity pool
	EntityPages    int   // bank/entities/<Slug>.md files
	Lines          int64 // lines in all files
	LogLines       int64 // lines in daily logs
	Bytes          int64 // bytes in all files
}

// retainRef locates one Retain bullet, for evidence links in bank/opinions.md.
type retainRef struct {
	kind   byte
	slug   string
	text   string
	source string // memory/YYYY-MM-DD.md#Ln
	date   string
}

// Generate writes a synthetic workspace into dir (created if missing;
// existing files with the same names are overwritten) and reports what it
// wrote.
func Generate(dir string, opts Options) (Stats, error) {
	var st Stats
	if opts.Days < 0 {
		return st, errors.New("synth: negative number of days")
	}
	if opts.Days == 0 {
		opts.Days = 3650
	}
	if opts.Start.IsZero() {
		opts.Start = time.Date(2016, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	start := time.Date(opts.Start.Year(), opts.Start.Month(), opts.Start.Day(), 0, 0, 0, 0, time.UTC)
	for _, d := range []string{"memory", filepath.Join("bank", "entities")} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			return st, err
		}
	}
	ents := buildEntities(opts.Seed)
	st.Entities = len(ents)
	write := func(rel string, b []byte) error {
		st.Files++
		st.Bytes += int64(len(b))
		st.Lines += int64(bytes.Count(b, []byte{'\n'}))
		return os.WriteFile(filepath.Join(dir, filepath.FromSlash(rel)), b, 0o644)
	}
	var refs []retainRef
	var buf bytes.Buffer
	for i := 0; i < opts.Days; i++ {
		day := start.AddDate(0, 0, i)
		g := newGen(opts.Seed, uint64(i)+1, ents, day)
		buf.Reset()
		g.dailyLog(&buf)
		rel := "memory/" + day.Format("2006-01-02") + ".md"
		for _, r := range g.retained {
			r.source = rel + r.source
			refs = append(refs, r)
		}
		st.DailyLogs++
		if g.long {
			st.LongLogs++
		}
		if len(g.retained) > 0 {
			st.RetainSections++
			st.RetainBullets += len(g.retained)
		}
		st.CodeBlocks += g.codeBlocks
		st.LogLines += int64(bytes.Count(buf.Bytes(), []byte{'\n'}))
		if err := write(rel, buf.Bytes()); err != nil {
			return st, err
		}
	}
	end := start.AddDate(0, 0, opts.Days-1)
	g := newGen(opts.Seed, 0, ents, end)
	files := []struct {
		rel string
		fn  func(*bytes.Buffer)
	}{
		{"memory.md", g.coreMemory},
		{"bank/world.md", func(b *bytes.Buffer) { g.bankPage(b, "World", 'W', refs) }},
		{"bank/experience.md", func(b *bytes.Buffer) { g.bankPage(b, "Experience", 'B', refs) }},
		{"bank/opinions.md", func(b *bytes.Buffer) { g.opinions(b, refs) }},
	}
	for _, f := range files {
		buf.Reset()
		f.fn(&buf)
		if err := write(f.rel, buf.Bytes()); err != nil {
			return st, err
		}
	}
	for i := 0; i < len(ents) && i < 100; i++ {
		buf.Reset()
		g.entityPage(&buf, ents[i], refs)
		if err := write("bank/entities/"+ents[i].Slug+".md", buf.Bytes()); err != nil {
			return st, err
		}
		st.EntityPages++
	}
	return st, nil
}

// gen holds the random state for one file.
type gen struct {
	r          *rand.Rand
	words      *rand.Zipf
	ents       *rand.Zipf
	pool       []Entity
	day        time.Time
	line       int // lines written so far in the current daily log
	long       bool
	codeBlocks int
	retained   []retainRef
}

func newGen(seed, stream uint64, pool []Entity, day time.Time) *gen {
	r := rand.New(rand.NewPCG(seed, stream*0x9e3779b97f4a7c15+1))
	return &gen{
		r:     r,
		words: rand.NewZipf(r, 1.08, 2, uint64(len(vocabulary)-1)),
		ents:  rand.NewZipf(r, 1.2, 3, uint64(len(pool)-1)),
		pool:  pool,
		day:   day,
	}
}

func (g *gen) pick(list []string) string { return list[g.r.IntN(len(list))] }
func (g *gen) chance(p float64) bool     { return g.r.Float64() < p }
func (g *gen) word() string              { return vocabulary[g.words.Uint64()] }
func (g *gen) entity() Entity            { return g.pool[g.ents.Uint64()] }

func (g *gen) entityOf(k EntityKind) Entity {
	for {
		if e := g.entity(); e.Kind == k {
			return e
		}
	}
}

// mention refers to an entity the way a person writes notes: display name,
// alias, or an explicit @slug.
func (g *gen) mention(e Entity) string {
	switch x := g.r.IntN(10); {
	case x == 0:
		return "@" + e.Slug
	case x <= 2 && len(e.Aliases) > 0:
		return e.Aliases[g.r.IntN(len(e.Aliases))]
	default:
		return e.Name()
	}
}

// phrase is n Zipf-drawn words, with an occasional name, number or command.
func (g *gen) phrase(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		switch x := g.r.IntN(100); {
		case x < 4:
			b.WriteString(g.mention(g.entity()))
		case x < 6:
			b.WriteString(g.number())
		case x < 7:
			b.WriteString("`" + g.command() + "`")
		default:
			b.WriteString(g.word())
		}
	}
	return b.String()
}

func (g *gen) number() string {
	switch g.r.IntN(8) {
	case 0:
		return fmt.Sprintf("%d ms", 1+g.r.IntN(900))
	case 1:
		return fmt.Sprintf("v%d.%d.%d", g.r.IntN(4), g.r.IntN(20), g.r.IntN(12))
	case 2:
		return fmt.Sprintf("#%d", 100+g.r.IntN(4000))
	case 3:
		return fmt.Sprintf("%d%%", g.r.IntN(101))
	case 4:
		return fmt.Sprintf("%.1f GB", g.r.Float64()*64)
	case 5:
		return fmt.Sprintf("%d:%02d", 6+g.r.IntN(17), g.r.IntN(60))
	case 6:
		return fmt.Sprintf("€%d", 5+g.r.IntN(2000))
	default:
		return fmt.Sprint(g.r.IntN(10000))
	}
}

var commands = []string{
	"go test ./...", "go test -run TestRecall -count=1 ./recall", "go vet ./...", "git rebase -i HEAD~3",
	"git log --oneline -n 20", "git bisect start", "docker compose up -d", "kubectl get pods -n prod",
	"make release", "npm run build", "pnpm install", "cargo build --release", "python3 -m pytest -q",
	"rg -n TODO src/", "sqlite3 .memory/index.sqlite 'PRAGMA integrity_check'", "curl -s localhost:8080/healthz",
	"tail -f /var/log/syslog", "brew upgrade", "rsync -av ~/notes/ backup:/notes/", "htop",
	"journalctl -u nginx --since today", "terraform plan", "ffmpeg -i in.mov out.mp4", "du -sh ~/Downloads",
}

func (g *gen) command() string { return g.pick(commands) }

func capitalize(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

var verbs = []string{
	"Worked on", "Looked into", "Talked about", "Fixed", "Reviewed", "Planned", "Sketched", "Debugged",
	"Wrote up", "Cleaned up", "Read about", "Tried", "Refactored", "Benchmarked", "Discussed", "Shipped",
}

// sentence is one narrative sentence.
func (g *gen) sentence() string {
	n := 4 + g.r.IntN(10)
	switch g.r.IntN(9) {
	case 0:
		return fmt.Sprintf("%s %s with %s.", g.pick(verbs), g.phrase(n), g.mention(g.entityOf(Person)))
	case 1:
		return fmt.Sprintf("%s said %s.", g.mention(g.entityOf(Person)), g.phrase(n))
	case 2:
		return fmt.Sprintf("%s %s in %s.", g.pick(verbs), g.phrase(n), g.mention(g.entityOf(Project)))
	case 3:
		return fmt.Sprintf("Ran `%s`; %s.", g.command(), g.phrase(n))
	case 4:
		return fmt.Sprintf("Took %s for %s.", g.number(), g.phrase(n))
	case 5:
		return fmt.Sprintf("At %s: %s.", g.mention(g.entityOf(Place)), g.phrase(n))
	default:
		return capitalize(g.phrase(n)) + "."
	}
}

func (g *gen) out(b *bytes.Buffer, s string) {
	b.WriteString(s)
	b.WriteByte('\n')
	g.line++
}

func (g *gen) blank(b *bytes.Buffer) { g.out(b, "") }

var topics = []string{
	"Notes on %s", "Meeting with %s", "Debugging %s", "Ideas for %s", "Reading", "Errands", "Travel",
	"Health", "Links", "Plans", "Inbox", "Evening", "Retro: %s", "Follow-ups",
}

// dailyLog writes one memory/YYYY-MM-DD.md.
func (g *gen) dailyLog(b *bytes.Buffer) {
	g.out(b, "# "+g.day.Format("2006-01-02"))
	g.blank(b)
	if g.chance(0.3) {
		g.paragraph(b)
		g.blank(b)
	}
	sections := 1 + g.r.IntN(3)
	if g.chance(0.25) {
		sections++
	}
	target := 0
	if g.chance(0.006) {
		g.long = true
		target = 420 + g.r.IntN(160)
		sections = 1000
	}
	minute := 7*60 + g.r.IntN(180)
	session := 0
	for s := 0; s < sections && (target == 0 || g.line < target); s++ {
		if g.chance(0.65) {
			session++
			g.out(b, fmt.Sprintf("## Session %d · %02d:%02d", session, minute/60%24, minute%60))
			minute += 30 + g.r.IntN(150)
			if minute > 23*60+59 {
				minute = 23*60 + 59
			}
		} else {
			t := g.pick(topics)
			if strings.Contains(t, "%s") {
				e := g.entity()
				t = fmt.Sprintf(t, e.Name())
			}
			g.out(b, "## "+t)
		}
		g.blank(b)
		blocks := 2 + g.r.IntN(2)
		for k := 0; k < blocks; k++ {
			switch x := g.r.IntN(100); {
			case x < 50:
				g.bullets(b)
			case x < 92:
				g.paragraph(b)
			default:
				g.codeBlock(b)
			}
			g.blank(b)
		}
	}
	if g.chance(0.4) {
		g.retain(b)
	}
	// Drop the trailing blank line: files end with exactly one newline.
	if bytes.HasSuffix(b.Bytes(), []byte("\n\n")) {
		b.Truncate(b.Len() - 1)
		g.line--
	}
}

func (g *gen) paragraph(b *bytes.Buffer) {
	lines := 1 + g.r.IntN(3)
	for i := 0; i < lines; i++ {
		s := g.sentence()
		if g.chance(0.5) {
			s += " " + g.sentence()
		}
		g.out(b, s)
	}
}

func (g *gen) bullets(b *bytes.Buffer) {
	n := 2 + g.r.IntN(5)
	todo := g.chance(0.15)
	for i := 0; i < n; i++ {
		prefix := "- "
		if todo {
			prefix = g.pick([]string{"- [ ] ", "- [x] "})
		}
		g.out(b, prefix+g.sentence())
		if g.chance(0.12) {
			g.out(b, "  - "+capitalize(g.phrase(3+g.r.IntN(8))))
		}
	}
}

var codeTemplates = []struct{ lang, body string }{
	{"bash", "%[3]s\n%[4]s"},
	{"bash", "$ %[3]s\n%[5]d passed, 0 failed\n$ %[4]s"},
	{"go", "func %[1]s(ctx context.Context) error {\n\tif err := %[2]s(ctx); err != nil {\n\t\treturn fmt.Errorf(\"%[1]s: %%w\", err)\n\t}\n\treturn nil\n}"},
	{"json", "{\"%[1]s\": %[5]d, \"%[2]s\": true}"},
	{"sql", "SELECT path, line FROM passages WHERE passages MATCH '%[1]s %[2]s' LIMIT %[5]d;"},
	{"", "%[1]s %[2]s %[5]d\n%[2]s %[1]s"},
}

func (g *gen) codeBlock(b *bytes.Buffer) {
	g.codeBlocks++
	t := codeTemplates[g.r.IntN(len(codeTemplates))]
	body := fmt.Sprintf(t.body, g.word(), g.word(), g.command(), g.command(), g.r.IntN(500))
	g.out(b, "```"+t.lang)
	for _, l := range strings.Split(body, "\n") {
		g.out(b, l)
	}
	g.out(b, "```")
}

var months = []string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}

// eventDate is an explicit date or range near the log's day, in one of the
// forms the design names.
func (g *gen) eventDate() string {
	d := g.day.AddDate(0, 0, g.r.IntN(90)-60)
	switch g.r.IntN(5) {
	case 0, 1:
		return "on " + d.Format("2006-01-02")
	case 2:
		e := d.AddDate(0, 0, 1+g.r.IntN(5))
		if e.Month() == d.Month() {
			return fmt.Sprintf("(%s %d–%d, %d)", months[d.Month()-1], d.Day(), e.Day(), e.Year())
		}
		return fmt.Sprintf("(%s %d–%s %d, %d)", months[d.Month()-1], d.Day(), months[e.Month()-1], e.Day(), e.Year())
	case 3:
		return fmt.Sprintf("on %s %d, %d", months[d.Month()-1], d.Day(), d.Year())
	default:
		return "in " + d.Format("January 2006")
	}
}

// retainText is the body of one typed bullet about entity e.
func (g *gen) retainText(kind byte, e Entity) string {
	date := ""
	if g.chance(0.35) {
		date = " " + g.eventDate()
	}
	p := g.phrase(4 + g.r.IntN(8))
	switch kind {
	case 'W':
		switch g.r.IntN(4) {
		case 0:
			return fmt.Sprintf("Currently in %s%s for %s.", g.entityOf(Place).Name(), date, p)
		case 1:
			return fmt.Sprintf("Works on @%s%s; %s.", g.entityOf(Project).Slug, date, p)
		case 2:
			return fmt.Sprintf("Moved %s to %s%s.", p, g.word(), date)
		default:
			return capitalize(p) + date + "."
		}
	case 'B':
		switch g.r.IntN(3) {
		case 0:
			return fmt.Sprintf("I fixed %s%s (see memory/%s.md).", p, date, g.day.Format("2006-01-02"))
		case 1:
			return fmt.Sprintf("I met @%s at %s%s to talk about %s.", g.entityOf(Person).Slug, g.entityOf(Place).Name(), date, p)
		default:
			return fmt.Sprintf("I %s %s%s.", strings.ToLower(g.pick(verbs)), p, date)
		}
	case 'O':
		switch g.r.IntN(3) {
		case 0:
			return fmt.Sprintf("Prefers %s over %s.", p, g.phrase(2+g.r.IntN(4)))
		case 1:
			return fmt.Sprintf("Thinks %s is %s for %s.", g.mention(g.entityOf(Project)), g.word(), p)
		default:
			return fmt.Sprintf("Dislikes %s%s.", p, date)
		}
	default:
		return fmt.Sprintf("Summary: %s%s.", p, date)
	}
}

func (g *gen) kind() byte {
	switch x := g.r.IntN(100); {
	case x < 35:
		return 'W'
	case x < 65:
		return 'B'
	case x < 90:
		return 'O'
	default:
		return 'S'
	}
}

// typedBullet formats "- K @Slug: text", with a confidence on most opinions.
func (g *gen) typedBullet(kind byte, e Entity, text string) string {
	prefix := string(kind)
	if kind == 'O' && g.chance(0.7) {
		prefix = fmt.Sprintf("O(c=%.2g)", float64(1+g.r.IntN(99))/100)
	}
	return fmt.Sprintf("- %s @%s: %s", prefix, e.Slug, text)
}

func (g *gen) retain(b *bytes.Buffer) {
	g.out(b, "## Retain")
	n := 2 + g.r.IntN(5)
	for i := 0; i < n; i++ {
		k := g.kind()
		e := g.entity()
		text := g.retainText(k, e)
		if g.chance(0.15) {
			text += fmt.Sprintf(" Also @%s.", g.entity().Slug)
		}
		g.retained = append(g.retained, retainRef{
			kind: k, slug: e.Slug, text: text,
			source: fmt.Sprintf("#L%d", g.line+1), date: g.day.Format("2006-01-02"),
		})
		g.out(b, g.typedBullet(k, e, text))
		if g.chance(0.1) {
			g.out(b, "  "+capitalize(g.phrase(4+g.r.IntN(8)))+".")
		}
	}
	g.blank(b)
}

// sample returns up to n refs of the given kind (any kind if 0), evenly
// spread over the whole history.
func sample(refs []retainRef, kind byte, slug string, n int) []retainRef {
	var sel []retainRef
	for _, r := range refs {
		if (kind == 0 || r.kind == kind) && (slug == "" || r.slug == slug) {
			sel = append(sel, r)
		}
	}
	if len(sel) <= n {
		return sel
	}
	out := make([]retainRef, 0, n)
	for i := 0; i < n; i++ {
		out = append(out, sel[i*len(sel)/n])
	}
	return out
}

func (g *gen) coreMemory(b *bytes.Buffer) {
	g.out(b, "# Memory")
	g.blank(b)
	g.out(b, "## Preferences")
	for i := 0; i < 8; i++ {
		g.out(b, "- "+capitalize(g.phrase(5+g.r.IntN(8)))+".")
	}
	g.blank(b)
	for _, sec := range []struct {
		title string
		kind  EntityKind
	}{{"People", Person}, {"Projects", Project}, {"Places", Place}} {
		g.out(b, "## "+sec.title)
		n := 0
		for _, e := range g.pool {
			if e.Kind == sec.kind && n < 8 {
				n++
				g.out(b, fmt.Sprintf("- @%s: %s.", e.Slug, g.phrase(5+g.r.IntN(8))))
			}
		}
		g.blank(b)
	}
	g.out(b, "## Notes")
	g.paragraph(b)
}

func (g *gen) bankPage(b *bytes.Buffer, title string, kind byte, refs []retainRef) {
	g.out(b, "# "+title)
	g.blank(b)
	for _, r := range sample(refs, kind, "", 200) {
		g.out(b, fmt.Sprintf("- %c @%s: %s", kind, r.slug, r.text))
	}
}

func (g *gen) opinions(b *bytes.Buffer, refs []retainRef) {
	g.out(b, "# Opinions")
	g.blank(b)
	ops := sample(refs, 'O', "", 80)
	for i, r := range ops {
		g.out(b, fmt.Sprintf("- O(c=%.2g) @%s: %s", float64(30+g.r.IntN(70))/100, r.slug, r.text))
		g.out(b, "  - last_updated: "+r.date)
		g.out(b, "  - supports: "+r.source)
		if i > 0 && g.chance(0.3) {
			g.out(b, "  - contradicts: "+ops[g.r.IntN(i)].source)
		}
	}
}

func (g *gen) entityPage(b *bytes.Buffer, e Entity, refs []retainRef) {
	g.out(b, "---")
	g.out(b, "aliases: ["+strings.Join(e.Aliases, ", ")+"]")
	g.out(b, "type: "+string(e.Kind))
	g.out(b, "---")
	g.out(b, "# "+e.Name())
	g.blank(b)
	g.paragraph(b)
	g.blank(b)
	g.out(b, "## Facts")
	for _, r := range sample(refs, 0, e.Slug, 8) {
		g.out(b, fmt.Sprintf("- %c @%s: %s (%s)", r.kind, r.slug, r.text, r.source))
	}
	g.blank(b)
	g.out(b, "## Notes")
	g.bullets(b)
}
