package lang

import (
	"slices"
	"strings"
	"testing"
)

// TestStems: inflected forms, per language, share a stem token with the
// form a log or a question writes instead (issue 43, item 10): a plural,
// a definite form, a transliteration.
func TestStems(t *testing.T) {
	t.Parallel()
	tests := []struct {
		lang, a, b string
	}{
		{"de", "Rechnungen", "Rechnung"},
		{"de", "Häuser", "Haus"},
		{"de", "Steuererklaerung", "Steuererklärung"},
		{"de", "Mueller", "Müller"},
		{"de", "Muller", "Mueller"},
		{"it", "fatture", "fattura"},
		{"it", "prenotazioni", "prenotazione"},
		{"sv", "fakturorna", "faktura"},
		{"sv", "fakturan", "faktura"},
		{"sv", "bilarnas", "bilarna"},
		{"sv", "husets", "huset"},
		{"fr", "factures", "facture"},
		{"es", "facturas", "factura"},
		{"pt", "faturas", "fatura"},
		{"nl", "facturen", "factuur"},
		{"da", "fakturaen", "faktura"},
		{"no", "fakturaene", "faktura"},
		{"no", "bilene", "bilen"},
		{"da", "Ålborg", "Aalborg"},
	}
	for _, tt := range tests {
		a, b := stemsOf(AltTerms(tt.a)), stemsOf(AltTerms(tt.b))
		if !shares(a, b) {
			t.Errorf("%s: %q %q and %q %q share no stem", tt.lang, tt.a, a, tt.b, b)
		}
	}
}

// TestNoStems: words that are given no stems: function words, codes,
// numbers, other scripts (CJK has bigrams, Cyrillic its Russian stems,
// which are plain words).
func TestNoStems(t *testing.T) {
	t.Parallel()
	for _, w := range []string{"the", "und", "della", "och", "v0", "AB", "123", "l10n", "北京", "встречи", "Οδυσσέας"} {
		if s := stemsOf(AltTerms(w)); len(s) > 0 {
			t.Errorf("AltTerms(%q) has stems %q", w, s)
		}
	}
}

// TestStemmed: the language of a text, as AltText needs it: text in the
// languages stem.go stems gets stems; English text does not, nor English
// text that names people and places in other languages.
func TestStemmed(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text string
		want bool
	}{
		{"Frau Müller hat die Rechnungen heute an das Steuerbüro geschickt.", true},
		{"Der Hausmeister kommt am Freitag wegen der Heizung.", true},
		{"W @Jörg: Schlug zweiwöchige Release-Zyklen vor", true},
		{"Ho pagato le fatture di ottobre al fornitore.", true},
		{"Il fornitore vuole aumentare i prezzi del dieci per cento dal prossimo anno.", true},
		{"Jag skickade fakturan till Anna, och hon har betalat den.", true},
		{"Facture envoyée par courriel à Mireille, elle est dans le dossier.", true},
		{"Hemos pagado las facturas de octubre con el banco.", true},
		{"Jeg har sendt fakturaen til Søren, og han har betalt den.", true},
		{"Ik heb de facturen gisteren naar de boekhouder gestuurd.", true},
		{"Os requisitos fiscais variam de estado para estado, mas aqui estão alguns exemplos.", true},
		{"Deployed Memoria v0.4 to the staging server this morning.", false},
		{"We shipped v0.5 to the staging server today", false},
		{"Les Voix du Canal is a non-auditioned SATB community choir founded in 2009.", false},
		{"- O(c=0.8) @La-Clef-de-Sol: La Clef de Sol delivers choir orders within a week.", false},
		{"Vet: Dr. Helena Sousa, Clínica Veterinária São Gonçalo", false},
		{"Riad Dar Nour, Derb Sidi Bouamar near Dar el Bacha, Medina; four rooms", false},
		{"Had coffee with Zoë at the café on Dam Square.", false},
		{"Met Femke de Wit and Joost at Casa das Hortênsias.", false},
		{"Smith et al. found that the effect is small.", false},
		{"Zoë", false},
		{"北京的天气怎么样", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := Stemmed(tt.text); got != tt.want {
			t.Errorf("Stemmed(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

// TestAltTextStems: an item's row gets stems only when its text is in a
// language stem.go stems, in the order of its words, as a query word's
// AltTerms give them; English text in ASCII gets no alt text at all.
func TestAltTextStems(t *testing.T) {
	t.Parallel()
	if got := AltText("Paid the invoices to Mueller on Friday."); got != "" {
		t.Errorf("English text: AltText = %q, want none", got)
	}
	if got := AltText("Met Zoë and Jörg at the café."); strings.Contains(got, StemMark) {
		t.Errorf("English text with names: AltText = %q, want no stems", got)
	}
	got := strings.Fields(AltText("Frau Müller hat die Rechnungen geschickt."))
	var want []string
	for _, w := range []string{"Frau", "Müller", "hat", "Rechnungen", "geschickt"} {
		want = append(want, AltTerms(w)...)
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("AltText = %q, want the words' AltTerms in order %q", got, want)
	}
	if !shares(stemsOf(got), stemsOf(AltTerms("Rechnung"))) {
		t.Errorf("AltText %q has no stem of Rechnung", got)
	}
}

func stemsOf(ts []string) []string {
	var out []string
	for _, t := range ts {
		if strings.HasSuffix(t, StemMark) {
			out = append(out, t)
		}
	}
	return out
}

func shares(a, b []string) bool {
	for _, x := range a {
		if slices.Contains(b, x) {
			return true
		}
	}
	return false
}

func TestNotEnglish(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"We shipped the release on Friday.", false},
		{"Met Zoë Müller at the café in São Paulo.", false},
		{"Die Rechnung für den Kunden ist noch nicht bezahlt.", true},
		{"和客户开会，讨论了新的报价。", true},
		{"Теперь работает в школе в Казани.", true},
		{"Deploy 明天", false},
		{"", false},
	} {
		if got := NotEnglish(tc.text); got != tc.want {
			t.Errorf("NotEnglish(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}
