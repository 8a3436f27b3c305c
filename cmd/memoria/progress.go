package main

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// progressBar draws a one-line bar on a terminal; it is only used when
// stderr is a terminal, so logs and pipes get a single summary line.
type progressBar struct {
	w     io.Writer
	label string
	unit  string // what is counted; "files" when empty
	last  int    // last percentage drawn
	drawn bool
	// now is the clock for the time left (time.Now when nil); start is
	// the first update's time.
	now   func() time.Time
	start time.Time
	eta   string
}

func (p *progressBar) update(done, total int) {
	if p == nil || total <= 0 {
		return
	}
	now := time.Now
	if p.now != nil {
		now = p.now
	}
	t := now()
	if p.start.IsZero() {
		p.start = t
	}
	pct := done * 100 / total
	if p.drawn && pct == p.last {
		return
	}
	p.last, p.drawn = pct, true
	p.eta = timeLeft(t.Sub(p.start), done, total)
	const width = 30
	fill := pct * width / 100
	unit := p.unit
	if unit == "" {
		unit = "files"
	}
	fmt.Fprintf(p.w, "\r%s [%s%s] %3d%% %d/%d %s%s\033[K", p.label, strings.Repeat("=", fill), strings.Repeat(" ", width-fill), pct, done, total, unit, p.eta)
}

// timeLeft estimates the rest from the pace so far, once there is a pace
// to go by (a second of work and 1% done): ", about 3m20s left".
func timeLeft(elapsed time.Duration, done, total int) string {
	if done <= 0 || done >= total || elapsed < time.Second || done*100 < total {
		return ""
	}
	left := time.Duration(float64(elapsed) * float64(total-done) / float64(done))
	switch {
	case left >= time.Minute:
		left = left.Round(10 * time.Second)
	default:
		left = left.Round(time.Second)
	}
	return fmt.Sprintf(", about %s left", left)
}

func (p *progressBar) done() {
	if p != nil && p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
		p.drawn = false
	}
}
