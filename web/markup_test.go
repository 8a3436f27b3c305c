package web_test

import (
	"context"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"memoria"
)

// TestStoredTextNeverBecomesMarkup: memory text is served as data and the
// page writes it as text. The page's script has no call that turns a
// string into markup (innerHTML, insertAdjacentHTML, document.write, eval
// and their kin), so text holding HTML shows as text whatever a workspace
// or an import puts in it; and every response forbids inline and foreign
// scripts (a Content-Security-Policy of script-src 'self'), so markup that
// reached the page some other way would still not run. Recall returns a
// stored payload as JSON, never as HTML.
func TestStoredTextNeverBecomesMarkup(t *testing.T) {
	for _, name := range []string{"app.js", "index.html"} {
		src, err := os.ReadFile(filepath.Join("assets", name))
		if err != nil {
			t.Fatal(err)
		}
		sinks := regexp.MustCompile(`\.(innerHTML|outerHTML|insertAdjacentHTML|srcdoc)\b|document\.write|\beval\(|new Function\(|\bon[a-z]+=`)
		if m := sinks.FindAll(src, -1); len(m) > 0 {
			t.Errorf("%s writes strings as markup: %q", name, m)
		}
	}
	ws := open(t, t.TempDir())
	payload := `<img src=x onerror="document.title='XSS'"><script>document.title='XSS'</script>`
	day := time.Date(2026, 1, 10, 0, 0, 0, 0, time.UTC)
	if _, err := ws.Retain(context.Background(), []string{"W @Ana: Pasted " + payload}, memoria.RetainOptions{Date: day, Now: day}); err != nil {
		t.Fatal(err)
	}
	ts := serve(t, ws, "")
	for _, path := range []string{"/", "/app.js", "/api/recall?q=" + url.QueryEscape("pasted img")} {
		status, body, hdr := call(t, http.DefaultClient, "GET", ts.URL+path, "", nil)
		if status != 200 {
			t.Fatalf("%s: %d %s", path, status, body)
		}
		csp := hdr.Get("Content-Security-Policy")
		if !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe-") || hdr.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: Content-Security-Policy %q, X-Content-Type-Options %q", path, csp, hdr.Get("X-Content-Type-Options"))
		}
		if strings.HasPrefix(path, "/api/") {
			if ct := hdr.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") || !strings.Contains(body, `\u003cimg`) && !strings.Contains(body, `<img`) {
				t.Errorf("%s: %s %s", path, ct, body)
			}
		}
	}
}
