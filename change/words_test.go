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
		} else if !Says(s) {
			t.Errorf("%s: %q says no change", language, s)
		}
	}
	for _, s := range []string{"Backend lead on Project Atlas; based in Hamburg.", "Arbeitet im Büro in Köln.", "Lavora a Milano.", "Работает в Москве.", "在北京工作。", "東京で働いている。", "Hora di pranzo alle 13."} {
		if Says(s) {
			t.Errorf("%q read as a change", s)
		}
	}
}

// TestSaysOneDetector: one detector for prose and facts alike. A bare
// "moved", "stopped" or "now" says no change ("moved the Mac mini onto
// the fibre line", "the head shaking has stopped", "noticed only now");
// what the grammar reads does, and a '*' ends any word of a phrase
// ("passat* a").
func TestSaysOneDetector(t *testing.T) {
	for s, want := range map[string]bool{
		"We've moved the dogs to Clutha Vets in Alexandra.":           true,
		"Stopped using Emacs entirely; Zed is fast enough.":           true,
		"Zed is his editor now.":                                      true,
		"Start time: 19:00 → 19:15":                                   true,
		"Tom Beckwith replaced Priya as our business manager.":        true,
		"È passata a Fastweb il mese scorso.":                         true,
		"Pete moved the Mac mini onto the fibre line.":                false,
		"The ear looks much better and the head shaking has stopped.": false,
		"Noticed only now that the gate was open.":                    false,
		"Replaced the filter in the dehumidifier.":                    false,
		"Two new bookings for the cottage in March.":                  false,
	} {
		if got := Says(s); got != want {
			t.Errorf("Says(%q) = %v, want %v", s, got, want)
		}
	}
}
