package memory

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
	"golang.org/x/text/width"
)

// MaxSlugLen bounds an entity slug, so that bank/entities/<Slug>.md is a
// reasonable file name on every system.
const MaxSlugLen = 64

// EntityPage is a page under bank/entities/: the entity's slug (its file
// name without .md), display name and aliases from front matter.
type EntityPage struct {
	Slug    string
	Name    string
	Aliases []string
	Path    string // workspace-relative, e.g. bank/entities/Peter.md
}

// ErrUnsafeSlug is wrapped by ValidateSlug for slugs that cannot safely
// name a file in bank/entities/.
var ErrUnsafeSlug = errors.New("unsafe entity slug")

// ValidateSlug accepts slugs made of letters and digits of any script plus
// the separators '-', '_' and '.', beginning with a letter or digit and
// at most MaxSlugLen bytes. Anything that could escape bank/entities/
// ("../x", "a/b", a leading dot) is rejected, never followed.
//
// Invisible characters (zero-width, direction marks: Unicode's format
// characters) are refused rather than cut at, and so are the names
// Windows reserves for devices (CON, NUL, COM1…), which no page could be
// named after there.
func ValidateSlug(slug string) error {
	switch {
	case slug == "":
		return fmt.Errorf("%w: empty", ErrUnsafeSlug)
	case len(slug) > MaxSlugLen:
		return fmt.Errorf("%w %q: longer than %d bytes", ErrUnsafeSlug, slug, MaxSlugLen)
	case !utf8.ValidString(slug):
		return fmt.Errorf("%w %q: invalid UTF-8", ErrUnsafeSlug, slug)
	case strings.Contains(slug, ".."):
		return fmt.Errorf("%w %q: contains \"..\"", ErrUnsafeSlug, slug)
	}
	first, _ := utf8.DecodeRuneInString(slug)
	if !isSlugLetter(first) {
		return fmt.Errorf("%w %q: must start with a letter or digit", ErrUnsafeSlug, slug)
	}
	for _, r := range slug {
		if unicode.Is(unicode.Cf, r) {
			return fmt.Errorf("%w %q: contains the invisible character %U", ErrUnsafeSlug, slug, r)
		}
		if !isSlugLetter(r) && r != '-' && r != '_' && r != '.' {
			return fmt.Errorf("%w %q: character %q not allowed", ErrUnsafeSlug, slug, r)
		}
	}
	if reservedName(slug) {
		return fmt.Errorf("%w %q: a device name Windows reserves", ErrUnsafeSlug, slug)
	}
	last, _ := utf8.DecodeLastRuneInString(slug)
	if last == '.' {
		return fmt.Errorf("%w %q: ends with '.'", ErrUnsafeSlug, slug)
	}
	return nil
}

// reservedName reports whether slug, up to its first '.', is a device
// name Windows reserves in every folder.
func reservedName(slug string) bool {
	base, _, _ := strings.Cut(strings.ToUpper(slug), ".")
	switch base {
	case "CON", "PRN", "AUX", "NUL":
		return true
	}
	return len(base) == 4 && (base[:3] == "COM" || base[:3] == "LPT") && base[3] >= '0' && base[3] <= '9'
}

// NormalizeSlug is the form a slug is kept in: Unicode NFC, and the
// fullwidth and halfwidth forms folded to the usual ones, so that "café"
// composed and decomposed, or "Ｐeter" typed on a CJK keyboard, name one
// entity and one page.
func NormalizeSlug(slug string) string {
	for i := 0; i < len(slug); i++ {
		if slug[i] >= utf8.RuneSelf {
			return norm.NFC.String(width.Fold.String(slug))
		}
	}
	return slug
}

func isSlugLetter(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
}

// IsSlugRune reports whether r may appear inside a slug; parsers use it to
// find where an @mention ends. Invisible characters count, so that an
// @mention is read whole and ValidateSlug refuses it, rather than being
// cut short at one ("@Pe\u200bter" is not "@Pe").
func IsSlugRune(r rune) bool {
	return isSlugLetter(r) || r == '-' || r == '_' || r == '.' || unicode.Is(unicode.Cf, r)
}

// EntityName is the display name of a slug: '-' and '_' read as spaces.
func EntityName(slug string) string {
	return slugSeparators.Replace(slug)
}

// slugSeparators is built once: a Replacer costs more to build than to
// run, and recall compares entity keys pairwise.
var slugSeparators = strings.NewReplacer("-", " ", "_", " ")

// EntityKey is the case-folded form under which slugs, names and aliases
// are matched: "The-Castle", "the castle" and "THE_CASTLE" share one key.
func EntityKey(name string) string {
	if isSimpleKey(name) {
		return name
	}
	return strings.ToLower(strings.Join(strings.Fields(EntityName(NormalizeSlug(name))), " "))
}

// isSimpleKey reports whether name is already its own key: lower-case
// ASCII letters and digits only, the common slug.
func isSimpleKey(name string) bool {
	for i := 0; i < len(name); i++ {
		if c := name[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return name != ""
}

// EntityRow is one row of an index's entity listing: an entity by its
// case-folded key; its page's slug, name and path when it has one; how
// many items mention it and the newest day among them (YYYY-MM-DD, "" if
// none); and the entities of the first item that mentions it, where its
// slug is spelled as written.
type EntityRow struct {
	Key, Slug, Name, Page string
	Items                 int
	LastDay               string
	FirstEntities         string // space-separated slugs
}

// SummarizeEntities turns an index's entity rows into Store.EntityList's
// answer: one entity per key (of two pages of one slug, the first row),
// its slug as its page writes it or as first mentioned, its name the
// page's or the slug read as words, most mentioned first, then by slug.
func SummarizeEntities(rows []EntityRow) []EntitySummary {
	out := make([]EntitySummary, 0, len(rows))
	seen := map[string]bool{}
	for _, r := range rows {
		if seen[r.Key] {
			continue
		}
		seen[r.Key] = true
		e := EntitySummary{Slug: r.Slug, Name: r.Name, Page: r.Page, Items: r.Items}
		if e.Slug == "" {
			e.Slug = r.Key
			for _, s := range strings.Fields(r.FirstEntities) {
				if strings.ToLower(s) == r.Key {
					e.Slug = s
					break
				}
			}
		}
		if e.Name == "" {
			e.Name = strings.ReplaceAll(e.Slug, "-", " ")
		}
		e.LastSeen, _ = time.Parse(time.DateOnly, r.LastDay)
		out = append(out, e)
	}
	slices.SortStableFunc(out, func(a, b EntitySummary) int {
		if a.Items != b.Items {
			return b.Items - a.Items
		}
		return strings.Compare(strings.ToLower(a.Slug), strings.ToLower(b.Slug))
	})
	return out
}
