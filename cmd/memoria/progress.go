package main

import (
	"fmt"
	"io"
	"strings"
)

// progressBar draws a one-line bar on a terminal; it is only used when
// stderr is a terminal, so logs and pipes get a single summary line.
type progressBar struct {
	w     io.Writer
	label string
	unit  string // what is counted; "files" when empty
	last  int    // last percentage drawn
	drawn bool
}

func (p *progressBar) update(done, total int) {
	if p == nil || total <= 0 {
		return
	}
	pct := done * 100 / total
	if p.drawn && pct == p.last {
		return
	}
	p.last, p.drawn = pct, true
	const width = 30
	fill := pct * width / 100
	unit := p.unit
	if unit == "" {
		unit = "files"
	}
	fmt.Fprintf(p.w, "\r%s [%s%s] %3d%% %d/%d %s", p.label, strings.Repeat("=", fill), strings.Repeat(" ", width-fill), pct, done, total, unit)
}

func (p *progressBar) done() {
	if p != nil && p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
		p.drawn = false
	}
}
