package lang

import (
	"slices"
	"strings"
	"testing"
)

// TestAltTerms: what a query word adds to its own index term, but its
// stems (TestStems).
func TestAltTerms(t *testing.T) {
	t.Parallel()
	tests := []struct {
		word string
		want []string
	}{
		{"marrakech", nil}, // ASCII: the tokenizer alone
		{"Zoë", nil},       // remove_diacritics already makes "zoe"
		{"北京", []string{"北京"}},
		{"北京天气", []string{"北京", "京天", "天气"}},
		{"猫", []string{"猫"}},
		{"把Memoria部署", []string{"把", "Memoria", "部署"}},
		{"東京での打ち合わせ", []string{"東京", "京で", "での", "の打", "打ち", "ち合", "合わ", "わせ"}},
		{"서울에서", []string{"서울", "울에", "에서"}},
		{"Пётр", []string{"петр"}},                   // ё → е
		{"встречи", []string{"встреч"}},              // Snowball Russian
		{"Straße", []string{"strasse"}},              // ß → ss
		{"Øresund", []string{"oresund", "oeresund"}}, // ø → o, and as oe
		{"Łódź", []string{"lodz"}},                   // ł → l
		{"Οδυσσέας", []string{"οδυσσεασ"}},           // Greek accents, final sigma
		{"ΟΔΥΣΣΈΑΣ", []string{"οδυσσεασ"}},
	}
	for _, tt := range tests {
		if got := withoutStems(AltTerms(tt.word)); !slices.Equal(got, tt.want) {
			t.Errorf("AltTerms(%q) = %q, want %q", tt.word, got, tt.want)
		}
	}
}

// TestFolds: transliterations and width folds (issue 43, item 10): each
// word's forms, but its stems, are what the index holds of the other
// spellings, so that "Mueller" finds "Müller", "Müller" finds "Mueller",
// and "AB-123" finds "ＡＢ－１２３".
func TestFolds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		word string
		want []string
	}{
		{"Müller", []string{"mueller"}}, // unicode61 makes "muller" itself
		{"MÜLLER", []string{"mueller"}},
		{"Jörg", []string{"joerg"}},
		{"Bär", []string{"baer"}},
		{"Ålborg", []string{"aalborg"}},
		{"Søren", []string{"soren", "soeren"}},
		{"grüßt", []string{"grusst", "gruesst"}},
		{"Zoë", nil}, // ë has no transliteration: "zoe" is the tokenizer's own
		{"ＡＢ", []string{"ab"}},
		{"１２３", []string{"123"}},
		{"ＡＢ－１２３", []string{"ab", "123"}},
		{"ｶﾀｶﾅ", []string{"カタ", "タカ", "カナ"}}, // half-width kana as bigrams of the full-width
		{"Mueller", nil},                     // ASCII: nothing but stems
	}
	for _, tt := range tests {
		if got := withoutStems(AltTerms(tt.word)); !slices.Equal(got, tt.want) {
			t.Errorf("AltTerms(%q) = %q, want %q", tt.word, got, tt.want)
		}
	}
	if got, want := Fold("ＺＯË"), "zoe"; got != want {
		t.Errorf("Fold(ＺＯË) = %q, want %q", got, want)
	}
}

func withoutStems(ts []string) []string {
	var out []string
	for _, t := range ts {
		if !strings.HasSuffix(t, StemMark) {
			out = append(out, t)
		}
	}
	return out
}
