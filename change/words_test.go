package change

import (
	"testing"

	"memoria/lang"
)

// TestChangeWordsByLang: each language's table says a change in a
// sentence of that language, and a sentence that says none is not read
// as one.
func TestChangeWordsByLang(t *testing.T) {
	t.Parallel()
	says := map[string]string{
		"en": "Switched hosting to AWS.",
		"de": "Ist inzwischen nach Bonn umgezogen.",
		"it": "Si è trasferita a Torino.",
		"fr": "Travaille désormais à Lyon.",
		"es": "Ya no vive en Sevilla.",
		"pt": "Mudou-se para o Porto.",
		"sv": "Har flyttat till Malmö.",
		"ru": "Переехал в Казань.",
		"zh": "他搬到上海了。",
		"ja": "大阪に引っ越した。",
	}
	for language := range lang.ChangeWords {
		if s, ok := says[language]; !ok {
			t.Errorf("no example for %s", language)
		} else if !saysChangeAnyLang(s) {
			t.Errorf("%s: %q says no change", language, s)
		}
	}
	for _, s := range []string{"Backend lead on Project Atlas; based in Hamburg.", "Arbeitet im Büro in Köln.", "Lavora a Milano.", "Работает в Москве.", "在北京工作。", "東京で働いている。", "Hora di pranzo alle 13."} {
		if saysChangeAnyLang(s) {
			t.Errorf("%q read as a change", s)
		}
	}
}
