//go:build !unix

package uselite

import "math"

func cpuSeconds() float64 { return math.NaN() }
