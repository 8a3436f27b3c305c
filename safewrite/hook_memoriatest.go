//go:build memoriatest

package safewrite

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// PauseEnv names the environment variable that, in binaries built with the
// memoriatest tag only, makes a writer stop at one step and wait forever
// (to be killed by a test): a step name ("renamed") or "writing:N" to stop
// after N bytes of the temporary file. The writer prints
// "safewrite: paused at STEP" on stderr first.
const PauseEnv = "MEMORIA_SAFEWRITE_PAUSE"

func init() {
	v := os.Getenv(PauseEnv)
	if v == "" {
		return
	}
	step, arg, _ := strings.Cut(v, ":")
	if step == "writing" {
		at, _ := strconv.Atoi(arg)
		pauseOffset = func(n int) int { return min(max(at, 0), n) }
	}
	hook = func(s string, n int) {
		if s != step {
			return
		}
		fmt.Fprintf(os.Stderr, "safewrite: paused at %s %d\n", s, n)
		for {
			time.Sleep(time.Hour) // wait to be killed
		}
	}
}
