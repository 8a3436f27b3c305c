package lang

import (
	"slices"
	"testing"
)

// TestAltTerms: what a query word adds to its own index term.
func TestAltTerms(t *testing.T) {
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
		{"Пётр", []string{"петр"}},         // ё → е
		{"встречи", []string{"встреч"}},    // Snowball Russian
		{"Straße", []string{"strasse"}},    // ß → ss
		{"Øresund", []string{"oresund"}},   // ø → o
		{"Łódź", []string{"lodz"}},         // ł → l
		{"Οδυσσέας", []string{"οδυσσεασ"}}, // Greek accents, final sigma
		{"ΟΔΥΣΣΈΑΣ", []string{"οδυσσεασ"}},
	}
	for _, tt := range tests {
		if got := AltTerms(tt.word); !slices.Equal(got, tt.want) {
			t.Errorf("AltTerms(%q) = %q, want %q", tt.word, got, tt.want)
		}
	}
}
