package retain

import (
	"errors"
	"strings"
	"testing"

	"memoria/memory"
)

func TestValidate(t *testing.T) {
	tests := []struct {
		in       string
		kind     memory.Kind
		conf     float64
		entities []string
		errWant  string // substring of the error; "" for valid
	}{
		{in: "W @Peter: Lives in Vienna.", kind: memory.KindWorld, entities: []string{"Peter"}},
		{in: "- O(c=0.8) @Peter: Prefers tea.", kind: memory.KindOpinion, conf: 0.8, entities: []string{"Peter"}},
		{in: "O( c = 1 ) @Peter @The-Castle: Loves it.", kind: memory.KindOpinion, conf: 1, entities: []string{"Peter", "The-Castle"}},
		{in: "B I fixed the crash in @warelay.", kind: memory.KindExperience, entities: []string{"warelay"}},
		{in: "S Weekly summary: quiet week.", kind: memory.KindObservation},
		{in: "  W\tTabs are fine.  ", kind: memory.KindWorld},
		{in: "W Mail peter@example.com is not a mention.", kind: memory.KindWorld},
		{in: "X @Peter: Something.", errWant: `unknown kind letter 'X'`},
		{in: "Q: nope", errWant: "unknown kind letter"},
		{in: "w @Peter: lower case.", errWant: "must be upper case"},
		{in: "O(c=1.7) @Peter: Too sure.", errWant: "c=1.7: confidence must be between 0 and 1"},
		{in: "O(c=-0.1) @Peter: Negative.", errWant: "c=-0.1: confidence must be between 0 and 1"},
		{in: "O(c=high) @Peter: Words.", errWant: "c=high: confidence must be between 0 and 1"},
		{in: "W(c=0.5) @Peter: World facts have no confidence.", errWant: "only opinions"},
		{in: "W @../../etc: escape.", errWant: `unsafe entity slug "../../etc"`},
		{in: "W Talked to @../../etc/passwd today.", errWant: "unsafe entity slug"},
		{in: "", errWant: "empty fact"},
		{in: "   ", errWant: "empty fact"},
		{in: "- ", errWant: "empty fact"},
		{in: "W", errWant: "no text"},
		{in: "W @Peter:", errWant: "no text"},
		{in: "O(c=0.5)", errWant: "no text"},
		{in: "Just a sentence.", errWant: "a fact starts with a kind letter"},
		{in: "W line one\nline two", errWant: "one line"},
		{in: "W bell \a", errWant: "control character U+0007"},
		{in: "W bad \xff utf8", errWant: "not valid UTF-8 (bad byte 0xff at offset 6)"},
		{in: "W " + strings.Repeat("x", MaxFactBytes), errWant: "over the 4096-byte limit"},
	}
	for _, tt := range tests {
		name := tt.in
		if len(name) > 40 {
			name = name[:40]
		}
		t.Run(name, func(t *testing.T) {
			f, err := Validate(tt.in)
			if tt.errWant != "" {
				if err == nil {
					t.Fatalf("valid: %+v", f)
				}
				if !strings.Contains(err.Error(), tt.errWant) || !errors.Is(err, ErrInvalid) {
					t.Errorf("error %q, want %q", err, tt.errWant)
				}
				if strings.Contains(err.Error(), "\n") {
					t.Errorf("error is not one line: %q", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if f.Kind != tt.kind || f.Confidence != tt.conf || strings.Join(f.Entities, ",") != strings.Join(tt.entities, ",") {
				t.Errorf("got %+v", f)
			}
			if strings.HasPrefix(f.Line, "- ") || f.Line != strings.TrimSpace(f.Line) {
				t.Errorf("line %q", f.Line)
			}
		})
	}
}
