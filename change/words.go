package change

import (
	"strings"
	"unicode"
)

// changeWordsByLang are the words and phrases that say a value changed
// from some moment on ("now", "moved", "switched to", "no longer"), per
// language: English and the languages of the multilingual sets (German,
// Italian, Russian, Chinese, Japanese; French, Spanish, Portuguese and
// Swedish besides). In lower case. A phrase ending in "*" matches any
// word that starts with its last word ("trasferit*": trasferito,
// trasferita); in Chinese and Japanese, which have no spaces, a phrase
// matches anywhere. This is the one list supersession (saysChangeAnyLang)
// reads; it is to move, with English's (changeMarkers, changeWords), into
// the lexicon package (issue 43, item 4).
var changeWordsByLang = map[string][]string{
	"en": {"now", "moved", "moves to", "switched", "switched to", "no longer", "instead", "from now on", "these days", "nowadays",
		"changed to", "upgraded", "replaced", "relocated", "not anymore", "any more", "anymore"},
	"de": {"jetzt", "nun", "inzwischen", "mittlerweile", "neuerdings", "umgezogen", "zieht um", "zog um", "gewechselt", "wechselt zu",
		"nicht mehr", "ab sofort", "stattdessen", "ersetzt", "umgestiegen", "seit kurzem"},
	"it": {"ora", "adesso", "ormai", "trasferit*", "si è trasferit*", "cambiat*", "passat* a", "non più", "da oggi", "invece",
		"sostituit*", "non è più"},
	"fr": {"maintenant", "désormais", "dorénavant", "déménag*", "a changé", "est passé*", "remplacé*", "n'est plus", "à la place"},
	"es": {"ahora", "ya no", "se mudó", "mudad*", "cambió", "cambiad*", "pasó a", "en lugar de", "desde ahora", "reemplaz*", "sustituid*"},
	"pt": {"agora", "já não", "não mais", "mudou", "mudou-se", "trocou", "passou a", "em vez de", "substituíd*"},
	"sv": {"nu", "numera", "flyttat", "flyttade", "bytt", "bytte", "inte längre", "istället", "från och med nu"},
	"ru": {"теперь", "сейчас", "отныне", "переехал*", "перешёл", "перешел", "перешла", "перешли", "больше не", "сменил*", "поменял*",
		"вместо", "заменил*"},
	"zh": {"现在", "目前", "如今", "搬到", "搬去", "搬家", "改成", "改为", "换成", "换到", "不再", "已经不", "转到", "迁到", "迁移到", "替换"},
	"ja": {"今は", "現在", "引っ越", "移った", "移転", "変わった", "変更", "切り替え", "乗り換え", "代わりに"},
}

// changePhrases are changeWordsByLang's phrases as word sequences, made
// once; cjkChange its phrases of languages without spaces.
var changePhrases, cjkChange = func() ([][]string, []string) {
	var words [][]string
	var cjk []string
	for lang, ps := range changeWordsByLang {
		for _, p := range ps {
			if lang == "zh" || lang == "ja" {
				cjk = append(cjk, p)
			} else {
				words = append(words, strings.Fields(p))
			}
		}
	}
	return words, cjk
}()

// saysChangeAnyLang reports whether a text says that a value changed, in
// any language of changeWordsByLang (English's fuller rules: Says).
func saysChangeAnyLang(text string) bool {
	if Says(text) {
		return true
	}
	l := strings.ToLower(text)
	for _, p := range cjkChange {
		if strings.Contains(l, p) {
			return true
		}
	}
	ws := strings.FieldsFunc(l, func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' && r != '-' })
	for i := range ws {
		for _, p := range changePhrases {
			if phraseAt(ws[i:], p) {
				return true
			}
		}
	}
	return false
}

// phraseAt reports whether words start with the phrase p (its last word
// a prefix when it ends in "*").
func phraseAt(words, p []string) bool {
	if len(words) < len(p) {
		return false
	}
	for j, w := range p {
		if prefix, ok := strings.CutSuffix(w, "*"); ok && j == len(p)-1 {
			if !strings.HasPrefix(words[j], prefix) {
				return false
			}
		} else if words[j] != w {
			return false
		}
	}
	return true
}
