package web_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"memoria"
)

// chromium is the browser the test drives (Debian's package; see
// scripts/ci-browser.sh).
const chromium = "/usr/bin/chromium"

// stepTimeout bounds each step of the browser test: a wait for an element
// that never comes fails the step rather than the whole run's deadline.
const stepTimeout = 30 * time.Second

// TestBrowser drives the page in headless Chromium on a copy of the
// example workspace: each view, a search with its explain breakdown, a
// citation opened, and an inferred fact accepted, with a screenshot of
// each (in $MEMORIA_SCREENSHOTS when set). Without Chromium it is skipped,
// unless MEMORIA_REQUIRE_BROWSER=1 (CI), when that is a failure.
func TestBrowser(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(chromium); err != nil {
		if os.Getenv("MEMORIA_REQUIRE_BROWSER") == "1" {
			t.Fatalf("MEMORIA_REQUIRE_BROWSER=1 but %s is missing: run scripts/ci-browser.sh", chromium)
		}
		t.Skipf("%s is missing (scripts/ci-browser.sh installs it)", chromium)
	}
	shots := os.Getenv("MEMORIA_SCREENSHOTS")
	if shots == "" {
		shots = t.TempDir()
	} else if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}

	ws := example(t)
	now := time.Date(2025, 12, 1, 0, 0, 0, 0, time.UTC)
	// Real review queues and opinion history: reflect records the change
	// of each opinion's confidence, inference proposes facts.
	if _, err := ws.Reflect(context.Background(), memoria.ReflectOptions{Now: now, Lexical: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := ws.InferFacts(context.Background(), memoria.InferOptions{Now: now}); err != nil {
		t.Fatal(err)
	}
	ts := serve(t, ws, "browser-token")

	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.WindowSize(1400, 1000), chromedp.UserDataDir(t.TempDir()))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelA()
	ctx, cancelB := chromedp.NewContext(actx)
	defer cancelB()
	ctx, cancelT := context.WithTimeout(ctx, 3*time.Minute)
	defer cancelT()

	// Start the browser on the test's context: the steps below run on
	// shorter ones, which must not own it.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting %s: %v", chromium, err)
	}
	css := func(sel string) chromedp.CSS { return chromedp.CSS(sel) }
	shot := func(name string) chromedp.Action[chromedp.Void] {
		return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			buf, err := chromedp.CaptureScreenshot()(ctx, tg)
			if err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(shots, name+".png"), buf, 0o644)
		})
	}
	// do runs a step's actions; a step that fails leaves a screenshot of
	// the page as it was and the page's text in the log.
	do := func(step string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		sctx, cancel := context.WithTimeout(ctx, stepTimeout)
		defer cancel()
		if err := chromedp.Do(sctx, steps...); err != nil {
			chromedp.Do(ctx, shot("failed"))
			body, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`))
			t.Fatalf("%s: %v (screenshot failed.png in %s); the page says:\n%s", step, err, shots, body)
		}
	}
	text := func(sel string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Text(css(sel)))
		if err != nil {
			t.Fatalf("text of %s: %v", sel, err)
		}
		return v
	}
	attr := func(sel, name string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.AttributeValue(css(sel), name))
		if err != nil || !v.Exists {
			t.Fatalf("attribute %s of %s: %v", name, sel, err)
		}
		return v.Value
	}
	count := func(sel string) int {
		t.Helper()
		n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll(`+strconv.Quote(sel)+`).length`))
		if err != nil {
			t.Fatalf("count %s: %v", sel, err)
		}
		return n
	}

	// stray reports text the page rendered from a value that was not text
	// (a text node "null" or "undefined", an "[object …]").
	stray := func(view string) {
		t.Helper()
		n := count("#main")
		bad, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`(() => {
			const out = [], w = document.createTreeWalker(document.getElementById("main"), NodeFilter.SHOW_TEXT);
			while (w.nextNode()) {
				const v = w.currentNode.nodeValue;
				if (/^(null|undefined)+$/.test(v.trim()) || v.includes("[object ")) out.push(v);
			}
			return out;
		})()`))
		if err != nil || n != 1 {
			t.Fatalf("%s: checking the text: %v", view, err)
		}
		if len(bad) > 0 {
			t.Errorf("%s shows stray text %q", view, bad)
		}
	}

	// The token link sets the cookie and lands on the search view.
	do("open with the token",
		chromedp.Navigate(ts.URL+"/?token=browser-token"),
		chromedp.WaitVisible(css("#search-form")),
		chromedp.WaitVisible(css("#status:not(:empty)")),
		shot("01-search-empty"))
	if loc, err := chromedp.Run(ctx, chromedp.Location()); err != nil || strings.Contains(loc, "token") {
		t.Errorf("the address after the token link is %q (%v); want it without the token", loc, err)
	}

	// Search as `memoria recall --now 2025-12-01` does.
	do("search",
		chromedp.SendKeys(css("#q"), "what does Peter prefer?"),
		chromedp.SendKeys(css("#now"), "2025-12-01"),
		chromedp.Click(css("#search-form button[type=submit]")),
		chromedp.WaitVisible(css("#result-count")),
		chromedp.Click(css(".result details.explain summary")),
		chromedp.WaitVisible(css(".result .why table")),
		shot("02-search-results"))
	stray("search")
	if n, first := text("#result-count"), text(".result .content"); !strings.Contains(first, "concise") || strings.HasPrefix(n, "0 ") {
		t.Errorf("search: %q, first result %q; want Peter's preference for concise replies", n, first)
	}
	// The filters: entity and kind.
	do("search with filters",
		chromedp.Evaluate[chromedp.Void](`location.hash = "search?q=the+trip&entity=Andy&kind=world&now=2025-12-01"`, chromedp.EvalIgnoreExceptions),
		chromedp.WaitVisible(css(`#q[value="the trip"]`)),
		chromedp.WaitVisible(css("#result-count")))
	if meta := text(".result .meta"); !strings.Contains(strings.ToLower(meta), "world") || !strings.Contains(meta, "@Andy") {
		t.Errorf("filtered result's meta %q, want a world fact about Andy", meta)
	}

	// A citation opens its lines.
	ref := attr(".result a.cite", "data-ref")
	do("open a citation",
		chromedp.Click(css(".result a.cite")),
		chromedp.WaitVisible(css(`#viewer[data-loaded] #viewer-lines li.cited`)),
		shot("03-citation"))
	lines, err := ws.Get(ref)
	if err != nil {
		t.Fatal(err)
	}
	firstLine := strings.SplitN(lines.Text, "\n", 2)[0]
	if cited := text("#viewer-lines li.cited"); !strings.Contains(cited, strings.TrimSpace(firstLine)) {
		t.Errorf("citation %s shows %q; the file has %q", ref, cited, firstLine)
	}

	do("timeline",
		chromedp.Click(css("#nav a[data-view=timeline]")),
		chromedp.WaitVisible(css("section.day")),
		chromedp.WaitVisible(css("svg.events rect.bar")),
		shot("04-timeline"))
	stray("timeline")
	if n := count("section.day"); n != 14 {
		t.Errorf("the first page of the timeline has %d days, want 14", n)
	}
	do("older days",
		chromedp.Click(css("#older")),
		chromedp.WaitVisible(css(`section.day[data-day="2025-10-22"]`)))

	do("entities",
		chromedp.Click(css("#nav a[data-view=entities]")),
		chromedp.WaitVisible(css("#entity-list li a")),
		chromedp.WaitVisible(css("svg.graph line.edge")),
		shot("05-entities"))
	stray("entities")
	do("an entity",
		chromedp.Click(css(`svg.graph a.gnode[data-slug="Peter"] circle`)),
		chromedp.WaitVisible(css("#entity-current .result")),
		chromedp.WaitVisible(css("#entity-neighbours svg.graph")),
		shot("06-entity"))
	stray("entity")
	if name := text("#entity-name"); name != "Peter Steinberger" {
		t.Errorf("entity page of %q, want Peter Steinberger", name)
	}
	if count("#entity-superseded .pair") == 0 {
		t.Errorf("Peter's page shows no superseded fact with what replaced it")
	}
	do("superseded facts", chromedp.ScrollIntoView(css("#entity-superseded")), shot("06b-entity-superseded"))

	do("opinions",
		chromedp.Click(css("#nav a[data-view=opinions]")),
		chromedp.WaitVisible(css(".opinion svg.confidence polyline.conf")),
		shot("07-opinions"))
	stray("opinions")
	if n := count(".opinion svg.confidence"); n < 7 {
		t.Errorf("%d opinion plots, want one for each of the example's opinions", n)
	}

	// Accept the first inferred fact from the page.
	do("review",
		chromedp.Click(css("#nav a[data-view=review]")),
		chromedp.WaitVisible(css(".proposal.retain button.accept")),
		shot("08-review"))
	stray("review")
	id, fact := attr(".proposal.retain", "data-id"), text(".proposal.retain .content")
	props, err := ws.RetainProposals("")
	if err != nil {
		t.Fatal(err)
	}
	var src string
	for _, p := range props {
		if p.ID == id {
			src = p.Source
		}
	}
	if src == "" {
		t.Fatalf("the page's first proposal %s is not in the review file", id)
	}
	do("accept",
		chromedp.Click(css(`.proposal.retain[data-id="`+id+`"] button.accept`)),
		chromedp.WaitNotPresent(css(`.proposal.retain[data-id="`+id+`"]`)),
		chromedp.WaitVisible(css(".toast")),
		shot("09-accepted"))
	log, err := os.ReadFile(filepath.Join(ws.Dir(), strings.SplitN(src, "#", 2)[0]))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(log), "## Retain") || !strings.Contains(string(log), strings.TrimSpace(fact)) {
		t.Errorf("the accepted fact %q is not in the Retain section of %s", fact, src)
	}
	t.Logf("screenshots in %s", shots)
}

// TestBrowserFirstView measures the page on the workspace named by
// $MEMORIA_PAGE_WORKSPACE (for instance the 10-year synthetic one of
// bench/genworkspace, indexed first with memoria index): the time from
// navigating to the page until the first view shows, with its status line,
// then the time each other view takes to show. It reports and asserts
// nothing (see docs/web.md for the figures); skipped without the variable
// or the browser.
func TestBrowserFirstView(t *testing.T) {
	t.Parallel()
	dir := os.Getenv("MEMORIA_PAGE_WORKSPACE")
	if dir == "" {
		t.Skip("set MEMORIA_PAGE_WORKSPACE=DIR to measure the page on a workspace")
	}
	if _, err := os.Stat(chromium); err != nil {
		t.Skipf("%s is missing", chromium)
	}
	ws := open(t, dir)
	ts := serve(t, ws, "")
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.WindowSize(1400, 1000), chromedp.UserDataDir(t.TempDir()))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelA()
	ctx, cancelB := chromedp.NewContext(actx)
	defer cancelB()
	ctx, cancelT := context.WithTimeout(ctx, 5*time.Minute)
	defer cancelT()
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	timed := func(name string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		start := time.Now()
		if err := chromedp.Do(ctx, steps...); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		t.Logf("%-28s %v", name, time.Since(start).Round(time.Millisecond))
	}
	css := func(sel string) chromedp.CSS { return chromedp.CSS(sel) }
	timed("first view (search, status)", chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible(css("#search-form")), chromedp.WaitVisible(css("#status:not(:empty)")))
	timed("search", chromedp.SendKeys(css("#q"), "what changed in the deploy?"), chromedp.Click(css("#search-form button[type=submit]")), chromedp.WaitVisible(css("#result-count")))
	timed("timeline", chromedp.Click(css("#nav a[data-view=timeline]")), chromedp.WaitVisible(css("section.day")))
	timed("entities and graph", chromedp.Click(css("#nav a[data-view=entities]")), chromedp.WaitVisible(css("#entity-list li a")), chromedp.WaitVisible(css("svg.graph")))
	timed("an entity", chromedp.Click(css("#entity-list li a")), chromedp.WaitVisible(css("#entity-name")))
	timed("opinions", chromedp.Click(css("#nav a[data-view=opinions]")), chromedp.WaitVisible(css("#opinions > *")))
	timed("review", chromedp.Click(css("#nav a[data-view=review]")), chromedp.WaitVisible(css("#core-queue h3")))
}
