package lang

import "strings"

// functionWords are the most frequent words of each language that say
// nothing of a text's topic: articles, pronouns, prepositions,
// conjunctions, auxiliaries. They tell a text's language (Stemmed) and are
// given no stems. A word that is a function word in English too ("die",
// "war", "also", "men", "till") tells no other language: it counts for
// English only (see functionWordLanguage).
var functionWords = map[string]string{
	"en": `a an the and or but nor of to in on at for with by from about as into
		onto over under than then so if because while per via up out off is are
		was were be been being am do does did doing done have has had having i
		me my mine myself we us our ours you your yours he him his she her hers
		it its they them their theirs this that these those there here what
		which who whom whose when where why how not no yes can could would
		should will shall may might must tell told say said know knew remember
		recall think mention mentioned please any anything some something
		everything all just also only very after before again still yet ago
		now today yesterday tomorrow more most other each every both too much
		many few own same such get got like one two new`,
	"de": `der die das und ist nicht mit für auf vor habe hatte ein eine einen einem einer eines dem
		des zu von wir ich sie im bei auch noch wird wurde wurden haben
		sind aus nach über oder aber wie wer wann warum welche welcher welches
		zum zur vom uns unser unsere mein meine dass weil wenn kein keine schon
		nur sehr dann doch nichts etwas mich dich sich ihr ihm ihn ihnen diese
		dieser dieses jetzt hier dort heute gestern morgen seit gegen ohne durch
		bis beim ob sondern wieder immer`,
	"it": `il lo gli di che è per non una uno del della dello dei delle degli al alla
		alle allo agli nel nella nelle negli sul sulla sui dal dalla dai sono ho
		abbiamo hanno anche ma più questo questa questi queste quello quella
		quando chi perché cosa siamo erano sia molto ancora poi già dopo prima
		oggi ieri domani sempre niente qualcosa mio nostro nostra loro suo sua
		tutto tutti si mi gli le la ne`,
	"sv": `och att det som ett är på för med inte jag har av den om kan så
		från hade sig hon han mig dig vid eller när också efter bara skulle
		mycket hur vad vem vilken vår våra måste ska kommer blev finns här där
		inga ingen något några alla mellan utan detta denna dessa deras hans
		hennes vara varit blir igår idag imorgon`,
	"da": `og det er af ikke der mig sig et har havde hun hvor eller hvad skal
		selv alle vil blev kunne ind når være noget ville jo deres efter skulle
		denne dette også hende meget disse hvis nogle hos blive mange bliver
		hendes været sådan jeg du`,
	"no": `og det er av ikke der seg et har hadde hun hvor eller hva skal selv
		alle vil ble kunne når være noe ville deres etter skulle denne dette
		også henne mye disse hvis noen hos bli mange blir hennes vært jeg du
		oss`,
	"nl": `de het een te dat niet voor zijn er maar ook als bij naar hij
		zij wij ik je heeft hebben wordt werd nog geen onze mijn uit deze dit
		wat wie waar wanneer waarom omdat meer zich haar hun jullie kan zal
		moet worden gisteren vandaag morgen`,
	"fr": `le la les une des du de et sont ne pas que qui dans pour sur avec ce
		cette ces il elle ils elles nous vous je mais ou où au aux été être
		avoir avons avez ont était leur leurs notre nos votre vos ma mes sa ses
		très aussi quand pourquoi quoi aujourd hier demain déjà toujours rien
		chez entre`,
	"es": `el la los las una unos unas de del al que por para no se lo le les su sus
		muy pero como más cuando donde dónde quién qué cómo porque también ya
		fue está están estaba han hemos tiene tienen este esta estos estas
		ese esa nuestro nuestra mi mis tu tus nosotros ellos ellas ayer hoy
		mañana sobre entre hasta`,
	"pt": `a uma uns umas de do da das é em no na nos nas por para não se que
		mais mas como quando onde quem porque também já foi está estão tem têm
		este esta isso isto esse essa nosso nossa meu minha seu sua eles elas
		ontem hoje amanhã sem sobre entre até`,
}

// functionWordLanguage maps each function word to the language it tells:
// "en" for English, "-" for a word of English and of another language
// ("a", "in", "per": it tells nothing), "" for a word two other languages
// share (it tells only that the text is not English).
var functionWordLanguage = func() map[string]string {
	m := map[string]string{}
	for _, w := range strings.Fields(functionWords["en"]) {
		m[w] = "en"
	}
	for l, ws := range functionWords {
		if l == "en" {
			continue
		}
		for _, w := range strings.Fields(ws) {
			switch prev, ok := m[w]; {
			case !ok:
				m[w] = l
			case prev == "en":
				m[w] = "-"
			case prev != "-" && prev != l:
				m[w] = ""
			}
		}
	}
	return m
}()

// IsFunctionWord reports whether the lower-cased word w is a function word
// of one of the languages Memoria stems (English included).
func IsFunctionWord(w string) bool {
	_, ok := functionWordLanguage[w]
	return ok
}
